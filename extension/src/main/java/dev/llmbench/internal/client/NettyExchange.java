package dev.llmbench.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.proxy.ProxyHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;

/**
 * One request on Netty, as OkHttp's {@code Exchange} is one request and its response: takes a connection from
 * the {@link NettyConnectionPool}, waits out its tunnel and TLS handshake, writes the request, feeds the response
 * to the {@link ChatStreamParser}, and ends once with a trace. The event loop calls it, the watchdog may abort it
 * from its own thread.
 *
 * <p>A request is never written twice once a byte of it may have left. The one resend: a pooled connection
 * found closed, on its own event loop, just before the request would be written to it (nothing left), gets
 * the request on a new connection, and the trace counts it ({@link RequestTrace#resends()}).
 */
final class NettyExchange implements StreamWatchdog.Watched {
  /** The exchange a channel serves, while it serves one. */
  static final AttributeKey<NettyExchange> EXCHANGE = AttributeKey.valueOf("llmbench.exchange");
  private static final int ERROR_EXCERPT_BYTES = 4096;

  final CompletableFuture<RequestTrace> result = new CompletableFuture<>();
  private final StreamRequest request;
  private final NettyRoute route;
  private final NettyConnectionPool connections;
  private final StreamWatchdog watchdog;
  private final ConnectionOptions options;
  private final Timeouts timeouts;
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

  NettyExchange(StreamRequest request, long startNanos, NettyRoute route, NettyConnectionPool connections,
      StreamWatchdog watchdog, ConnectionOptions options, Timeouts timeouts) {
    this.request = request;
    this.route = route;
    this.connections = connections;
    this.watchdog = watchdog;
    this.options = options;
    this.timeouts = timeouts;
    this.startNanos = startNanos;
    this.lastActivityNanos = startNanos;
    this.recorder = new StreamRecorder(request.capture(), Math.min(request.scheduledNanos(), startNanos), startNanos,
        request.promptTokensEstimate());
    recorder.asked(request.maxTokens(), request.ignoreEos());
  }

  void acquire() {
    SimpleChannelPool from = connections.get(route);
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
    boolean reused = NettyConnectionPool.reused(ch);
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
    NettyConnectionPool.taken(ch); // a close from now on is this exchange's, not the server's after a response
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
    if (connections.closesAfterResponse(route)) http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
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
    if (keepAlive) NettyConnectionPool.serverKeepAlive(channel, response.headers().get(HttpHeaderNames.KEEP_ALIVE));
    parser = ChatStreamParser.forResponse(recorder, status, contentType, now);
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
      connections.giveBack(ch, pool, reuse, route);
    }
    RequestTrace done = trace.failure() == null ? trace
        : trace.withFailureMessage(options.redact(trace.failure().message()));
    result.complete(resends == 0 ? done : done.withResends(resends));
  }

  /** Hands each decoded piece of a response to the exchange the channel is serving. */
  static final class Handler extends ChannelInboundHandlerAdapter {
    private final NettyConnectionPool connections;

    Handler(NettyConnectionPool connections) {
      this.connections = connections;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      NettyExchange e = ctx.channel().attr(EXCHANGE).get();
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
      NettyExchange e = ch.attr(EXCHANGE).get();
      if (e != null) {
        e.closed(null);
      } else {
        connections.closedWhileIdle(ch);
      }
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      NettyExchange e = ctx.channel().attr(EXCHANGE).get();
      if (e != null) e.closed(cause);
      ctx.close();
    }
  }
}
