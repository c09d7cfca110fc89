package dev.llmbench.internal.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.NoopAddressResolverGroup;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * How a new connection is made, as OkHttp's {@code ConnectPlan} makes one: the socket's options, where it
 * connects (the server, or the proxy in front of it), and its pipeline: the proxy's CONNECT tunnel for https,
 * TLS with the {@link ConnectionOptions}' trust and a certificate that must name the host, then HTTP/1.1.
 */
final class NettyChannelSetup {

  /** One read of at most this per connection per turn: a stream's first bytes never wait behind another's body. */
  private static final int READ_SIZE = 16 * 1024;

  private final Timeouts timeouts;
  private final Bootstrap bootstrap;
  private final SslContext ssl;

  NettyChannelSetup(EventLoopGroup group, ConnectionOptions options, Timeouts timeouts) {
    this.timeouts = timeouts;
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
  }

  /** Where a connection of {@code route} connects to. */
  Bootstrap bootstrapFor(NettyRoute route) {
    Bootstrap b = bootstrap.clone();
    if (route.absoluteForm()) {
      return b.remoteAddress(InetSocketAddress.createUnresolved(route.proxy().get().host(), route.proxy().get().port()));
    }
    if (route.proxy().isPresent()) b.resolver(NoopAddressResolverGroup.INSTANCE); // the proxy resolves the server's name
    return b.remoteAddress(InetSocketAddress.createUnresolved(route.host(), route.port()));
  }

  /** Sets up a new connection's pipeline: proxy tunnel, TLS, HTTP; the caller adds the handler of its exchanges. */
  void initChannel(Channel ch, NettyRoute route) {
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
    p.addLast(new HttpClientCodec(8192, 65536, 1 << 20));
  }
}
