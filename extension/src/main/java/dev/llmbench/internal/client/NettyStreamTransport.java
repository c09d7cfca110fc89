package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ConnectTimeoutException;
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
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.proxy.ProxyHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.NoopAddressResolverGroup;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import org.apiguardian.api.API;

/**
 * Generation requests on Netty: {@code threads} event loops read, decode and parse every stream in flight,
 * one read of at most 16 KB per connection per turn, so that a stream's first bytes never wait behind another
 * stream's whole body. Pooled connections per server; TLS with the {@link ConnectionOptions}' trust and host
 * name checks; HTTP proxies (absolute-form requests for http, a CONNECT tunnel for https).
 *
 * <p>A request is never written twice once a byte of it may have left. The one resend: a pooled connection
 * found closed, on its own event loop, just before the request would be written to it (nothing left), gets
 * the request on a new connection, and the trace counts it ({@link RequestTrace#resends()}).
 *
 * <p>Some servers close the connection after every response although they answer keep-alive (llama.cpp's
 * llama-server does after each stream). A request written into such a connection before its close is seen
 * would fail, and could not be resent. So a connection goes back to the pool only {@link #RELEASE_HOLD}
 * after its response ended, time for that close to arrive; and once a server has been seen closing an idle
 * connection that soon, its connections are not pooled any more: each request asks {@code Connection: close}.
 */
@API(status = INTERNAL)
public final class NettyStreamTransport implements StreamTransport {

  private static final AttributeKey<Exchange> EXCHANGE = AttributeKey.valueOf("llmbench.exchange");
  private static final AttributeKey<Boolean> USED = AttributeKey.valueOf("llmbench.used");
  private static final AttributeKey<Route> ROUTE = AttributeKey.valueOf("llmbench.route");
  private static final AttributeKey<Long> RELEASED_AT = AttributeKey.valueOf("llmbench.released-at");
  /** How long after its response a connection waits before another request may take it. */
  static final Duration RELEASE_HOLD = Duration.ofMillis(5);
  /** An idle connection the server closes within this of its last response: the server closes after each. */
  private static final long CLOSE_AFTER_RESPONSE_NANOS = Duration.ofSeconds(1).toNanos();
  private static final int READ_SIZE = 16 * 1024;
  private static final int ERROR_EXCERPT_BYTES = 4096;

  private final ConnectionOptions options;
  private final Timeouts timeouts;
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final SslContext ssl;
  private final AbstractChannelPoolMap<Route, SimpleChannelPool> pools;
  private final StreamWatchdog watchdog;
  /** Servers seen closing connections right after a response: not pooled any more. */
  private final Set<Route> closesAfterResponse = ConcurrentHashMap.newKeySet();

  /** Where a connection goes: the server, and the proxy on the way if any. */
  private record Route(String scheme, String host, int port, Optional<ProxyRoute.Proxy> proxy) {
    boolean tls() {
      return "https".equals(scheme);
    }

    /** A plain-HTTP request through a proxy goes to the proxy in absolute form; https tunnels instead. */
    boolean absoluteForm() {
      return proxy.isPresent() && !tls();
    }
  }

  /** Every transport's event loops are named {@code llmbench-io-<transport>-<loop>}. */
  private static final String IO_THREAD_PREFIX = "llmbench-io-";
  private static final AtomicInteger TRANSPORTS = new AtomicInteger();

  /** This transport's event loops' names start so: whoever weighs its CPU counts them and no other's. */
  private final String ioThreadPrefix = IO_THREAD_PREFIX + TRANSPORTS.incrementAndGet() + "-";

  /**
   * @param threads event loops that read every stream in flight
   */
  public NettyStreamTransport(ConnectionOptions options, Timeouts timeouts, int threads) {
    this.options = options;
    this.timeouts = timeouts;
    AtomicInteger n = new AtomicInteger();
    this.group = new NioEventLoopGroup(threads, r -> {
      Thread t = new Thread(r, ioThreadPrefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeouts.connect().toMillis()))
        .option(ChannelOption.ALLOCATOR, new PooledByteBufAllocator(false))
        .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(READ_SIZE).maxMessagesPerRead(1));
    try {
      this.ssl = SslContextBuilder.forClient().trustManager(options.trust()).build();
    } catch (SSLException e) {
      throw new IllegalStateException("TLS could not be set up: " + HttpText.describe(e), e);
    }
    this.pools = new AbstractChannelPoolMap<>() {
      @Override
      protected SimpleChannelPool newPool(Route route) {
        return new SimpleChannelPool(bootstrapFor(route), new PoolHandler(route), ChannelHealthChecker.ACTIVE, true, true);
      }
    };
    this.watchdog = new StreamWatchdog("llmbench-timeouts", StreamWatchdog.tickFor(timeouts));
  }

  /** A plain server with no extra headers, two event loops: for tests and benchmarks. */
  NettyStreamTransport(Timeouts timeouts, int threads) {
    this(ConnectionOptions.plain(URI.create("http://127.0.0.1/"), null, timeouts.connect()), timeouts, threads);
  }

  NettyStreamTransport(Timeouts timeouts) {
    this(timeouts, 2);
  }

  private Bootstrap bootstrapFor(Route route) {
    Bootstrap b = bootstrap.clone();
    if (route.absoluteForm()) {
      return b.remoteAddress(InetSocketAddress.createUnresolved(route.proxy().get().host(), route.proxy().get().port()));
    }
    if (route.proxy().isPresent()) b.resolver(NoopAddressResolverGroup.INSTANCE); // the proxy resolves the server's name
    return b.remoteAddress(InetSocketAddress.createUnresolved(route.host(), route.port()));
  }

  /** Sets up each new connection: proxy tunnel, TLS, HTTP; each connection serves one exchange at a time. */
  private final class PoolHandler implements ChannelPoolHandler {
    private final Route route;

    PoolHandler(Route route) {
      this.route = route;
    }

    @Override
    public void channelCreated(Channel ch) {
      ch.attr(ROUTE).set(route);
      ChannelPipeline p = ch.pipeline();
      if (route.proxy().isPresent() && route.tls()) {
        ProxyRoute.Proxy proxy = route.proxy().get();
        // The proxy's own address is resolved here: the channel's resolver is off, since the proxy resolves the server.
        InetSocketAddress at = new InetSocketAddress(proxy.host(), proxy.port());
        HttpProxyHandler tunnel = proxy.user().isPresent()
            ? new HttpProxyHandler(at, proxy.user().get(), proxy.password().orElse(""))
            : new HttpProxyHandler(at);
        tunnel.setConnectTimeoutMillis(timeouts.connect().toMillis());
        p.addLast(tunnel);
      }
      if (route.tls()) {
        SslHandler tls = ssl.newHandler(ch.alloc(), route.host(), route.port());
        SSLEngine engine = tls.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host
        engine.setSSLParameters(parameters);
        tls.setHandshakeTimeoutMillis(timeouts.connect().toMillis());
        p.addLast(tls);
      }
      p.addLast(new HttpClientCodec(8192, 65536, 1 << 20), new Handler());
    }

    @Override
    public void channelAcquired(Channel ch) {
      // Each exchange sets its own attribute.
    }

    @Override
    public void channelReleased(Channel ch) {
      ch.attr(EXCHANGE).set(null);
    }
  }

  @Override
  public CompletableFuture<RequestTrace> send(StreamRequest request) {
    Exchange exchange = new Exchange(request, System.nanoTime());
    watchdog.add(exchange);
    try {
      exchange.acquire();
    } catch (RuntimeException e) {
      exchange.connectFailed(e);
    }
    return exchange.result;
  }

  private Route route(URI uri) {
    String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
    return new Route(scheme, uri.getHost(), ProxyRoute.port(uri), options.proxies().proxyFor(uri));
  }

  /** The start of this transport's event loops' thread names. */
  public String ioThreadPrefix() {
    return ioThreadPrefix;
  }

  /** Whether the server at {@code uri} was seen closing connections right after its responses, so none is pooled. */
  public boolean closesAfterEachResponse(URI uri) {
    return closesAfterResponse.contains(route(uri));
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
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    return "NettyStreamTransport[" + options + "]";
  }

  /** Hands each decoded piece of a response to the exchange the channel is serving. */
  private final class Handler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      Exchange e = ctx.channel().attr(EXCHANGE).get();
      try {
        if (e == null) return;
        if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
          e.notHttp(o.decoderResult().cause());
          return;
        }
        if (msg instanceof HttpResponse response) e.headers(response);
        if (msg instanceof HttpContent content) e.content(content);
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      Channel ch = ctx.channel();
      Exchange e = ch.attr(EXCHANGE).get();
      if (e != null) {
        e.closed(null);
      } else {
        Long releasedAt = ch.attr(RELEASED_AT).get();
        if (releasedAt != null && System.nanoTime() - releasedAt < CLOSE_AFTER_RESPONSE_NANOS) {
          closesAfterResponse.add(ch.attr(ROUTE).get());
        }
      }
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
    final CompletableFuture<RequestTrace> result = new CompletableFuture<>();
    private final StreamRequest request;
    private final Route route;
    private final long startNanos;
    private final StreamRecorder recorder;
    private volatile long lastActivityNanos;
    private Channel channel;
    private SimpleChannelPool pool;
    private ChatStreamParser parser;
    private byte[] errorBody;
    private int errorLength;
    private int status;
    private String contentType = "";
    private boolean keepAlive;
    private boolean headers;
    private boolean written;
    private boolean finished;
    private int resends;

    Exchange(StreamRequest request, long startNanos) {
      this.request = request;
      this.route = route(request.uri());
      this.startNanos = startNanos;
      this.lastActivityNanos = startNanos;
      this.recorder = new StreamRecorder(request.capture(), Math.min(request.scheduledNanos(), startNanos), startNanos,
          request.promptTokensEstimate());
    }

    void acquire() {
      SimpleChannelPool from = pools.get(route);
      from.acquire().addListener((Future<Channel> f) -> {
        if (f.isSuccess()) {
          Channel ch = f.getNow();
          ch.eventLoop().execute(() -> start(ch, from));
        } else {
          connectFailed(f.cause());
        }
      });
    }

    /** On the channel's event loop: waits out a new connection's tunnel and TLS handshake, then writes. */
    private void start(Channel ch, SimpleChannelPool from) {
      boolean reused = ch.hasAttr(USED) && Boolean.TRUE.equals(ch.attr(USED).get());
      synchronized (this) {
        if (finished) {
          from.release(ch);
          return;
        }
        if (!ch.isActive()) {
          // Closed before a byte of this request was written to it: provably never left, so sent on a new one.
          from.release(ch);
          if (reused && resends == 0) {
            resends++;
            acquire();
          } else {
            connectFailed(new java.nio.channels.ClosedChannelException());
          }
          return;
        }
        channel = ch;
        pool = from;
      }
      ch.attr(USED).set(Boolean.TRUE);
      ch.attr(RELEASED_AT).set(null); // a close from now on is this exchange's, not the server's after a response
      ch.attr(EXCHANGE).set(this);
      ProxyHandler tunnel = ch.pipeline().get(ProxyHandler.class);
      SslHandler tls = ch.pipeline().get(SslHandler.class);
      if (tunnel != null && !tunnel.connectFuture().isDone()) {
        tunnel.connectFuture().addListener(f -> {
          if (f.isSuccess()) {
            afterTunnel(ch, tls);
          } else {
            setUpFailed("the proxy " + route.proxy().orElseThrow() + " gave no tunnel to " + route.host() + ":"
                + route.port() + ": " + HttpText.describe(f.cause()));
          }
        });
      } else if (tunnel != null && !tunnel.connectFuture().isSuccess()) {
        setUpFailed("the proxy " + route.proxy().orElseThrow() + " gave no tunnel: " + HttpText.describe(tunnel.connectFuture().cause()));
      } else {
        afterTunnel(ch, tls);
      }
    }

    private void afterTunnel(Channel ch, SslHandler tls) {
      if (tls == null || tls.handshakeFuture().isSuccess()) {
        write(ch);
        return;
      }
      tls.handshakeFuture().addListener(f -> {
        if (f.isSuccess()) {
          write(ch);
        } else {
          setUpFailed("the TLS handshake with " + route.host() + ":" + route.port() + " failed (" + HttpText.describe(f.cause())
              + "); the certificate must chain to " + options.trustSource() + " and name the host: set llmbench.tls.trust "
              + "to the server's CA, or check the URL's scheme and host");
        }
      });
    }

    private void write(Channel ch) {
      URI uri = request.uri();
      String target;
      if (route.absoluteForm()) {
        target = uri.getScheme() + "://" + uri.getRawAuthority().replaceFirst("^.*@", "") + pathAndQuery(uri);
      } else {
        target = pathAndQuery(uri);
      }
      FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
          Unpooled.wrappedBuffer(request.body()));
      http.headers().set(HttpHeaderNames.HOST, uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : ""))
          .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
          .set(HttpHeaderNames.ACCEPT, request.stream() ? "text/event-stream" : "application/json")
          .set(HttpHeaderNames.CONTENT_LENGTH, request.body().length);
      if (closesAfterResponse.contains(route)) http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      options.headers().forEach((k, v) -> http.headers().set(k, v));
      request.headers().forEach((k, v) -> http.headers().set(k, v));
      if (route.absoluteForm()) {
        ProxyRoute.Proxy proxy = route.proxy().get();
        proxy.user().ifPresent(u -> http.headers().set(HttpHeaderNames.PROXY_AUTHORIZATION, "Basic " + Base64.getEncoder()
            .encodeToString((u + ":" + proxy.password().orElse("")).getBytes(StandardCharsets.UTF_8))));
      }
      synchronized (this) {
        if (finished) {
          http.release();
          return;
        }
        written = true;
      }
      ch.writeAndFlush(http).addListener(f -> {
        if (!f.isSuccess()) closed(f.cause());
      });
    }

    private static String pathAndQuery(URI uri) {
      return (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
          + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
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
      if (parser == null) errorBody = new byte[ERROR_EXCERPT_BYTES];
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
        } else if (errorLength < errorBody.length) {
          int n = Math.min(buf.readableBytes(), errorBody.length - errorLength);
          buf.getBytes(buf.readerIndex(), errorBody, errorLength, n);
          errorLength += n;
        }
      }
      if (!ok) {
        finish(parser.finish(now), false);
      } else if (content instanceof LastHttpContent last) {
        if (last.decoderResult().isFailure()) {
          closed(last.decoderResult().cause());
        } else {
          finish(parser != null ? parser.finish(now) : recorder.finish(now, errorLength, bodyFailure()), keepAlive);
        }
      }
    }

    private StreamFailure bodyFailure() {
      String body = HttpText.errorSummary(contentType, errorBody, errorLength);
      if (status / 100 != 2) return new StreamFailure(StreamFailure.Cause.HTTP_STATUS, status, body);
      return new StreamFailure(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE, status, "HTTP " + status + " with Content-Type '"
          + contentType + "', not text/event-stream or application/json: " + body);
    }

    /** The connection closed or failed before the response ended. */
    synchronized void closed(Throwable cause) {
      if (finished) return;
      long now = System.nanoTime();
      String what = cause == null ? "the server closed the connection" : HttpText.describe(cause);
      StreamFailure failure;
      if (headers) {
        failure = new StreamFailure(StreamFailure.Cause.CUT_MID_STREAM, status, "the connection ended mid-stream after "
            + recorder.events() + " events: " + what);
      } else if (written) {
        failure = new StreamFailure(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE, 0,
            "the connection ended before a status line (" + what + "); the server may have read the request, so it is "
                + "not resent");
      } else {
        failure = new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0, "the connection ended before the request was "
            + "sent: " + what);
      }
      finish(parser != null ? parser.fail(now, failure) : recorder.finish(now, errorLength, failure), false);
    }

    /** Bytes that are not an HTTP/1.1 response (a TLS server on an http:// URL, a header block over the limit). */
    synchronized void notHttp(Throwable cause) {
      if (finished) return;
      long now = System.nanoTime();
      StreamFailure failure = headers
          ? new StreamFailure(StreamFailure.Cause.CUT_MID_STREAM, status, "the body is not valid HTTP/1.1 framing after "
              + recorder.events() + " events: " + HttpText.describe(cause))
          : new StreamFailure(StreamFailure.Cause.CLOSED_BEFORE_RESPONSE, 0, "the answer is not an HTTP/1.1 response ("
              + HttpText.describe(cause) + "); check the URL's scheme and port");
      finish(parser != null ? parser.fail(now, failure) : recorder.finish(now, errorLength, failure), false);
    }

    synchronized void setUpFailed(String message) {
      if (finished) return;
      finish(recorder.finish(System.nanoTime(), 0, new StreamFailure(StreamFailure.Cause.CONNECT_FAILED, 0, message)), false);
    }

    synchronized void connectFailed(Throwable cause) {
      if (finished) return;
      String where = route.proxy().map(p -> " (through the proxy " + p + ")").orElse("");
      String message = cause instanceof ConnectTimeoutException
          ? "could not connect to " + route.host() + ":" + route.port() + where + " within " + Timeouts.format(timeouts.connect())
              + " (" + timeouts.connectSetting() + ")"
          : "could not connect to " + route.host() + ":" + route.port() + where + ": " + HttpText.describe(cause);
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
      finish(parser != null ? parser.fail(nowNanos, withStatus) : recorder.finish(nowNanos, errorLength, withStatus), false);
    }

    /** With the lock held, once: hands the connection back (or closes it) and completes. */
    private void finish(RequestTrace trace, boolean reuse) {
      finished = true;
      watchdog.remove(this);
      Channel ch = channel;
      if (ch != null) {
        ch.attr(EXCHANGE).set(null);
        if (!reuse || closesAfterResponse.contains(route)) {
          ch.close();
          pool.release(ch);
        } else {
          ch.attr(RELEASED_AT).set(System.nanoTime());
          SimpleChannelPool to = pool;
          ch.eventLoop().schedule(() -> to.release(ch), RELEASE_HOLD.toNanos(), TimeUnit.NANOSECONDS);
        }
      }
      RequestTrace done = trace.failure() == null ? trace
          : trace.withFailureMessage(options.redact(trace.failure().message()));
      result.complete(resends == 0 ? done : done.withResends(resends));
    }
  }
}
