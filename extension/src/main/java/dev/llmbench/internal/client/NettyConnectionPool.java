package dev.llmbench.internal.client;

import io.netty.channel.Channel;
import io.netty.channel.pool.AbstractChannelPoolMap;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.ChannelPoolHandler;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.util.AttributeKey;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Pooled connections per {@link NettyRoute}, as OkHttp's connection pool keeps them, and what the pool learns of
 * keep-alive.
 *
 * <p>Some servers close the connection after every response although they answer keep-alive (llama.cpp's
 * llama-server does after each stream). A request written into such a connection before its close is seen
 * would fail, and could not be resent. So a connection goes back to the pool only {@link #RELEASE_HOLD}
 * after its response ended, time for that close to arrive; and once a server has been seen closing an idle
 * connection that soon, its connections are not pooled any more: each request asks {@code Connection: close}.
 */
final class NettyConnectionPool implements AutoCloseable {

  /** How long after its response a connection waits before another request may take it. */
  static final Duration RELEASE_HOLD = Duration.ofMillis(5);
  /** An idle connection the server closes within this of its last response: the server closes after each. */
  private static final long CLOSE_AFTER_RESPONSE_NANOS = Duration.ofSeconds(1).toNanos();

  private static final AttributeKey<Boolean> USED = AttributeKey.valueOf("llmbench.used");
  private static final AttributeKey<NettyRoute> ROUTE = AttributeKey.valueOf("llmbench.route");
  private static final AttributeKey<Long> RELEASED_AT = AttributeKey.valueOf("llmbench.released-at");

  private final AbstractChannelPoolMap<NettyRoute, SimpleChannelPool> pools;
  /** Servers seen closing connections right after a response: not pooled any more. */
  private final Set<NettyRoute> closesAfterResponse = ConcurrentHashMap.newKeySet();

  NettyConnectionPool(NettyChannelSetup setup) {
    this.pools = new AbstractChannelPoolMap<>() {
      @Override
      protected SimpleChannelPool newPool(NettyRoute route) {
        return new SimpleChannelPool(setup.bootstrapFor(route), new PoolHandler(setup, route), ChannelHealthChecker.ACTIVE,
            true, true);
      }
    };
  }

  /** The pool of {@code route}'s connections; an exchange gives its connection back to the pool it came from. */
  SimpleChannelPool get(NettyRoute route) {
    return pools.get(route);
  }

  /** Whether the server of {@code route} was seen closing connections right after its responses. */
  boolean closesAfterResponse(NettyRoute route) {
    return closesAfterResponse.contains(route);
  }

  /** Whether the connection served an exchange before. */
  static boolean reused(Channel ch) {
    return ch.hasAttr(USED) && Boolean.TRUE.equals(ch.attr(USED).get());
  }

  /** An exchange takes the connection: a close from now on is the exchange's. */
  static void taken(Channel ch) {
    ch.attr(USED).set(Boolean.TRUE);
    ch.attr(RELEASED_AT).set(null);
  }

  /**
   * An exchange is done with the connection: closed unless it may serve another ({@code reuse}) and its server
   * keeps connections open, else back in {@code pool} after {@link #RELEASE_HOLD}.
   */
  void giveBack(Channel ch, SimpleChannelPool pool, boolean reuse, NettyRoute route) {
    if (!reuse || closesAfterResponse.contains(route)) {
      ch.close();
      pool.release(ch);
    } else {
      ch.attr(RELEASED_AT).set(System.nanoTime());
      ch.eventLoop().schedule(() -> pool.release(ch), RELEASE_HOLD.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  /** A connection serving no exchange closed: soon after its last response, its server closes after each. */
  void closedWhileIdle(Channel ch) {
    Long releasedAt = ch.attr(RELEASED_AT).get();
    if (releasedAt != null && System.nanoTime() - releasedAt < CLOSE_AFTER_RESPONSE_NANOS) {
      closesAfterResponse.add(ch.attr(ROUTE).get());
    }
  }

  @Override
  public void close() {
    pools.close();
  }

  /** Sets up each new connection; each connection serves one exchange at a time. */
  private final class PoolHandler implements ChannelPoolHandler {
    private final NettyChannelSetup setup;
    private final NettyRoute route;

    PoolHandler(NettyChannelSetup setup, NettyRoute route) {
      this.setup = setup;
      this.route = route;
    }

    @Override
    public void channelCreated(Channel ch) {
      ch.attr(ROUTE).set(route);
      setup.initChannel(ch, route);
      ch.pipeline().addLast(new NettyExchange.Handler(NettyConnectionPool.this));
    }

    @Override
    public void channelAcquired(Channel ch) {
      // Each exchange sets its own attribute.
    }

    @Override
    public void channelReleased(Channel ch) {
      ch.attr(NettyExchange.EXCHANGE).set(null);
    }
  }
}
