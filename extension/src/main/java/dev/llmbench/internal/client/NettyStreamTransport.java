package dev.llmbench.internal.client;

import dev.llmbench.internal.format.Excerpt;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.pool.AbstractChannelPoolMap;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.ChannelPoolHandler;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Streams on Netty: {@code threads} event loops read, decode and parse every stream in flight on the same
 * thread, one read of at most 16 KB per connection per turn, so that a stream's first bytes never wait
 * behind another stream's whole body. Pooled heap buffers, no retries, idle connections the server closed
 * dropped from the pool. An evaluation candidate next to {@link JdkStreamTransport}.
 */
final class NettyStreamTransport implements StreamTransport {

  private static final AttributeKey<Exchange> EXCHANGE = AttributeKey.valueOf("llmbench.exchange");
  private static final int READ_SIZE = Integer.getInteger("llmbench.netty.read", 16 * 1024);

  private final Timeouts timeouts;
  private final EventLoopGroup group;
  private final AbstractChannelPoolMap<InetSocketAddress, SimpleChannelPool> pools;
  private final StreamWatchdog watchdog;

  NettyStreamTransport(Timeouts timeouts, int threads) {
    this.timeouts = timeouts;
    AtomicInteger n = new AtomicInteger();
    this.group = new NioEventLoopGroup(threads, r -> {
      Thread t = new Thread(r, "llmbench-netty-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeouts.connect().toMillis())
        .option(ChannelOption.ALLOCATOR, new PooledByteBufAllocator(false))
        .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(READ_SIZE).maxMessagesPerRead(1));
    this.pools = new AbstractChannelPoolMap<>() {
      @Override
      protected SimpleChannelPool newPool(InetSocketAddress address) {
        return new SimpleChannelPool(bootstrap.clone().remoteAddress(address), new ChannelPoolHandler() {
          @Override
          public void channelCreated(Channel ch) {
            ch.pipeline().addLast(new HttpClientCodec(4096, 16384, 1 << 20), new Handler());
          }

          @Override
          public void channelAcquired(Channel ch) {
            // Nothing to reset: each exchange sets its own attribute.
          }

          @Override
          public void channelReleased(Channel ch) {
            ch.attr(EXCHANGE).set(null);
          }
        }, ChannelHealthChecker.ACTIVE, true, true);
      }
    };
    this.watchdog = new StreamWatchdog("llmbench-netty-timeouts", StreamWatchdog.tickFor(timeouts));
  }

  NettyStreamTransport(Timeouts timeouts) {
    this(timeouts, Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  @Override
  public CompletableFuture<StreamTrace> send(StreamRequest request) {
    URI uri = request.uri();
    int port = uri.getPort() > 0 ? uri.getPort() : 80;
    Exchange exchange = new Exchange(request, System.nanoTime());
    watchdog.add(exchange);
    SimpleChannelPool pool = pools.get(InetSocketAddress.createUnresolved(uri.getHost(), port));
    pool.acquire().addListener(f -> {
      if (f.isSuccess()) {
        exchange.start((Channel) f.getNow(), pool);
      } else {
        exchange.connectFailed(f.cause());
      }
    });
    return exchange.result;
  }

  @Override
  public void cancelAll() {
    watchdog.forEach(w -> ((Exchange) w).abort(
        new StreamFailure(StreamFailure.Cause.CANCELLED, 0, "cancelled while in flight"), System.nanoTime()));
  }

  @Override
  public int inFlight() {
    return watchdog.size();
  }

  @Override
  public void close() {
    cancelAll();
    watchdog.close();
    pools.close();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
  }

  /** Hands each decoded piece of a response to the exchange the channel is serving. */
  private static final class Handler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      Exchange e = ctx.channel().attr(EXCHANGE).get();
      try {
        if (e == null) return;
        if (msg instanceof HttpResponse response) e.headers(response);
        if (msg instanceof HttpContent content) e.content(content);
      } finally {
        io.netty.util.ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      Exchange e = ctx.channel().attr(EXCHANGE).get();
      if (e != null) e.closed(null);
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Exchange e = ctx.channel().attr(EXCHANGE).get();
      if (e != null) e.closed(cause);
      ctx.close();
    }
  }

  /** One request; the event loop calls it, the watchdog may abort it from its own thread. */
  private final class Exchange implements StreamWatchdog.Watched {
    final CompletableFuture<StreamTrace> result = new CompletableFuture<>();
    private final StreamRequest request;
    private final long startNanos;
    private final StreamRecorder recorder;
    private volatile long lastActivityNanos;
    private Channel channel;
    private SimpleChannelPool pool;
    private ChatStreamParser parser;
    private ByteArrayOutputStream errorBody;
    private int status;
    private String contentType = "";
    private boolean keepAlive;
    private boolean headers;
    private boolean finished;

    Exchange(StreamRequest request, long startNanos) {
      this.request = request;
      this.startNanos = startNanos;
      this.lastActivityNanos = startNanos;
      this.recorder = new StreamRecorder(request.capture(), Math.min(request.scheduledNanos(), startNanos), startNanos,
          request.promptTokensEstimate());
    }

    void start(Channel ch, SimpleChannelPool from) {
      synchronized (this) {
        channel = ch;
        pool = from;
        if (finished) {
          ch.close();
          from.release(ch);
          return;
        }
      }
      ch.attr(EXCHANGE).set(this);
      URI uri = request.uri();
      String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
          + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
      FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
          Unpooled.wrappedBuffer(request.body()));
      http.headers().set(HttpHeaderNames.HOST, uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : ""))
          .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
          .set(HttpHeaderNames.ACCEPT, request.stream() ? "text/event-stream" : "application/json")
          .set(HttpHeaderNames.CONTENT_LENGTH, request.body().length);
      request.headers().forEach((k, v) -> http.headers().set(k, v));
      ch.writeAndFlush(http).addListener(f -> {
        if (!f.isSuccess()) closed(f.cause());
      });
    }

    synchronized void headers(HttpResponse response) {
      if (finished) return;
      long now = System.nanoTime();
      lastActivityNanos = now;
      headers = true;
      status = response.status().code();
      contentType = response.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
      keepAlive = HttpUtil.isKeepAlive(response);
      boolean eventStream = HttpText.isMediaType(contentType, "text/event-stream");
      recorder.headers(status, now, eventStream);
      if (status / 100 == 2) {
        if (eventStream) {
          parser = ChatStreamParser.eventStream(recorder);
        } else if (contentType.isEmpty() || HttpText.isMediaType(contentType, "application/json")) {
          parser = ChatStreamParser.jsonBody(recorder, contentType);
        }
      }
      if (parser == null) errorBody = new ByteArrayOutputStream();
    }

    synchronized void content(HttpContent content) {
      if (finished) return;
      long now = System.nanoTime();
      lastActivityNanos = now;
      ByteBuf buf = content.content();
      boolean ok = true;
      if (buf.isReadable()) {
        if (parser != null) {
          ok = buf.hasArray()
              ? parser.feed(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.arrayOffset() + buf.writerIndex(), now)
              : parser.feed(buf.nioBuffer(), now);
        } else if (errorBody.size() < 4096) {
          byte[] bytes = new byte[Math.min(buf.readableBytes(), 4096 - errorBody.size())];
          buf.getBytes(buf.readerIndex(), bytes);
          errorBody.write(bytes, 0, bytes.length);
        }
      }
      if (!ok) {
        finish(parser.finish(now), false);
      } else if (content instanceof LastHttpContent last) {
        if (last.decoderResult().isFailure()) {
          closed(last.decoderResult().cause());
        } else {
          finish(parser != null ? parser.finish(now) : recorder.finish(now, 0, bodyFailure()), keepAlive);
        }
      }
    }

    private StreamFailure bodyFailure() {
      String body = Excerpt.of(errorBody.toString(StandardCharsets.UTF_8), 300);
      if (status / 100 != 2) return new StreamFailure(StreamFailure.Cause.HTTP_STATUS, status, body);
      return new StreamFailure(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE, status,
          "the answer's Content-Type is " + contentType + ", not text/event-stream or application/json: " + body);
    }

    /** The connection closed or failed before the response ended. */
    synchronized void closed(Throwable cause) {
      if (finished) return;
      long now = System.nanoTime();
      String what = cause == null ? "the server closed the connection" : HttpText.describe(cause);
      StreamFailure failure = headers
          ? new StreamFailure(StreamFailure.Cause.CUT_MID_STREAM, status, "the connection failed mid-stream: " + what)
          : new StreamFailure(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE, 0,
              "the connection closed before a response; the request may have been read and is not resent: " + what);
      finish(parser != null ? parser.fail(now, failure) : recorder.finish(now, 0, failure), false);
    }

    synchronized void connectFailed(Throwable cause) {
      if (finished) return;
      String message = cause instanceof io.netty.channel.ConnectTimeoutException
          ? "could not connect within " + Timeouts.format(timeouts.connect())
          : "could not connect: " + HttpText.describe(cause instanceof ConnectException ? cause : cause);
      finish(recorder.finish(System.nanoTime(), 0, new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0, message)),
          false);
    }

    @Override
    public void check(long nowNanos) {
      if (nowNanos - startNanos > timeouts.request().toNanos()) {
        abort(new StreamFailure(StreamFailure.Cause.REQUEST_TIMEOUT, 0, timeouts.requestMessage()), nowNanos);
      } else if (nowNanos - lastActivityNanos > timeouts.idle().toNanos()) {
        abort(new StreamFailure(StreamFailure.Cause.IDLE_TIMEOUT, 0, timeouts.idleMessage()), nowNanos);
      }
    }

    synchronized void abort(StreamFailure failure, long nowNanos) {
      if (finished) return;
      StreamFailure withStatus = new StreamFailure(failure.cause(), status, failure.message());
      finish(parser != null ? parser.fail(nowNanos, withStatus) : recorder.finish(nowNanos, 0, withStatus), false);
    }

    /** With the lock held, once: hands the connection back (or closes it) and completes. */
    private void finish(StreamTrace trace, boolean reuse) {
      finished = true;
      watchdog.remove(this);
      Channel ch = channel;
      if (ch != null) {
        ch.attr(EXCHANGE).set(null);
        if (!reuse) ch.close();
        pool.release(ch);
      }
      result.complete(trace);
    }
  }
}
