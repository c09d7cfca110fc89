package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;

/**
 * Generation requests on Netty: {@code threads} event loops read, decode and parse every stream in flight,
 * one read of at most 16 KB per connection per turn, so that a stream's first bytes never wait behind another
 * stream's whole body. The parts, as OkHttp names its own: {@link NettyChannelSetup} makes a connection (TLS with
 * the {@link ConnectionOptions}' trust and host name checks; HTTP proxies: absolute-form requests for http, a
 * CONNECT tunnel for https), {@link NettyConnectionPool} pools connections per server, never hands out one idle
 * past the keep-alive limit and learns which servers close after each response, {@link NettyExchange} is one request and its response. This class owns the event
 * loops and the watchdog of timeouts.
 */
@API(status = INTERNAL)
public final class NettyStreamTransport implements StreamTransport {

  /** Every transport's event loops are named {@code llmbench-io-<transport>-<loop>}. */
  private static final String IO_THREAD_PREFIX = "llmbench-io-";
  private static final AtomicInteger TRANSPORTS = new AtomicInteger();

  private final ConnectionOptions options;
  private final Timeouts timeouts;
  private final EventLoopGroup group;
  private final NettyConnectionPool connections;
  private final StreamWatchdog watchdog;

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
    this.connections = new NettyConnectionPool(new NettyChannelSetup(group, options, timeouts), options.keepAlive());
    this.watchdog = new StreamWatchdog("llmbench-timeouts", StreamWatchdog.tickFor(timeouts));
  }

  /** A plain server with no extra headers, two event loops: for tests and benchmarks. */
  public NettyStreamTransport(Timeouts timeouts, int threads) {
    this(ConnectionOptions.plain(URI.create("http://127.0.0.1/"), null, timeouts.connect()), timeouts, threads);
  }

  public NettyStreamTransport(Timeouts timeouts) {
    this(timeouts, 2);
  }

  @Override
  public CompletableFuture<RequestTrace> send(StreamRequest request) {
    NettyExchange exchange = new NettyExchange(request, System.nanoTime(), NettyRoute.of(request.uri(), options), connections,
        watchdog, options, timeouts);
    watchdog.add(exchange);
    try {
      exchange.acquire();
    } catch (RuntimeException e) {
      exchange.connectFailed(e);
    }
    return exchange.result;
  }

  /** The start of this transport's event loops' thread names. */
  public String ioThreadPrefix() {
    return ioThreadPrefix;
  }

  /** Whether the server at {@code uri} was seen closing connections right after its responses, so none is pooled. */
  public boolean closesAfterEachResponse(URI uri) {
    return connections.closesAfterResponse(NettyRoute.of(uri, options));
  }

  @Override
  public void cancelAll() {
    watchdog.forEach(w -> ((NettyExchange) w).abort(
        new StreamFailure(StreamFailure.Cause.CANCELLED, 0, "cancelled while in flight"), System.nanoTime()));
  }

  /** Connections between their last response and their return to the pool (see {@link NettyConnectionPool#returning()}). */
  int connectionsReturning() {
    return connections.returning();
  }

  @Override
  public int inFlight() {
    return watchdog.size();
  }

  @Override
  public void close() {
    cancelAll();
    watchdog.close();
    connections.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    return "NettyStreamTransport[" + options + "]";
  }
}
