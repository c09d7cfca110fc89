package dev.llmbench.internal.client;

import io.netty.channel.Channel;
import io.netty.channel.pool.AbstractChannelPoolMap;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.ChannelPoolHandler;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pooled connections per {@link NettyRoute}, as OkHttp's connection pool keeps them, and what the pool learns of
 * keep-alive.
 *
 * <p>Some servers close the connection after every response although they answer keep-alive (llama.cpp's
 * llama-server does after each stream). A request written into such a connection before its close is seen
 * would fail, and could not be resent. So a connection goes back to the pool only {@link #RELEASE_HOLD}
 * after its response ended, time for that close to arrive; and once a server has been seen closing an idle
 * connection that soon, its connections are not pooled any more: each request asks {@code Connection: close}.
 *
 * <p>Every server also closes a connection left idle past its keep-alive timeout (uvicorn's, so vLLM's and
 * SGLang's, 5 s; llama-server's cpp-httplib 5 s). A request written just as that close is on its way fails
 * before a status line, and the server may have read it, so it cannot be resent. So a connection idle longer
 * than the keep-alive limit ({@code llmbench.keep-alive}, lowered by a server's {@code Keep-Alive: timeout=N}
 * to N less {@link #SERVER_TIMEOUT_MARGIN}) is closed instead of taken, as aiohttp's and httpx's pools do.
 */
final class NettyConnectionPool implements AutoCloseable {

  /** How long after its response a connection waits before another request may take it. */
  static final Duration RELEASE_HOLD = Duration.ofMillis(5);
  /** An idle connection the server closes within this of its last response: the server closes after each. */
  private static final long CLOSE_AFTER_RESPONSE_NANOS = Duration.ofSeconds(1).toNanos();
  /**
   * Taken off a server's {@code Keep-Alive: timeout=N}: its clock starts as it sends the response's end, ours as
   * we read it, and our next request must reach it before its timer fires.
   */
  static final Duration SERVER_TIMEOUT_MARGIN = Duration.ofSeconds(1);

  private static final AttributeKey<Boolean> USED = AttributeKey.valueOf("llmbench.used");
  private static final AttributeKey<NettyRoute> ROUTE = AttributeKey.valueOf("llmbench.route");
  private static final AttributeKey<Long> RELEASED_AT = AttributeKey.valueOf("llmbench.released-at");
  /** The idle limit a server's {@code Keep-Alive: timeout=N} sets for its connection, in nanoseconds. */
  private static final AttributeKey<Long> SERVER_LIMIT = AttributeKey.valueOf("llmbench.server-keep-alive");

  private final AbstractChannelPoolMap<NettyRoute, SimpleChannelPool> pools;
  private final AtomicInteger returning = new AtomicInteger();
  /** Servers seen closing connections right after a response: not pooled any more. */
  private final Set<NettyRoute> closesAfterResponse = ConcurrentHashMap.newKeySet();
  private final long keepAliveNanos;

  /**
   * @param keepAlive the longest a connection may sit idle and still carry a request; zero for none
   */
  NettyConnectionPool(NettyChannelSetup setup, Duration keepAlive) {
    this.keepAliveNanos = keepAlive.toNanos();
    ChannelHealthChecker fresh = this::fresh;
    this.pools = new AbstractChannelPoolMap<>() {
      @Override
      protected SimpleChannelPool newPool(NettyRoute route) {
        return new SimpleChannelPool(setup.bootstrapFor(route), new PoolHandler(setup, route), fresh, true, true);
      }
    };
  }

  /**
   * On the connection's event loop, as the pool hands it out or takes it back: whether it may carry a request,
   * open and idle no longer than its limit. The pool closes one that may not.
   */
  Future<Boolean> fresh(Channel ch) {
    if (!ch.isActive()) return later(ch, Boolean.FALSE);
    Long releasedAt = ch.attr(RELEASED_AT).get();
    if (releasedAt != null && System.nanoTime() - releasedAt > idleLimitNanos(ch)) {
      ch.attr(RELEASED_AT).set(null); // this close is ours, not a server closing after its response
      return later(ch, Boolean.FALSE);
    }
    return ch.eventLoop().newSucceededFuture(Boolean.TRUE);
  }

  /**
   * "Not fresh", answered on a later task of the connection's event loop. SimpleChannelPool asks for the next pooled
   * connection from inside the answer's listener, so an answer already given makes a recursion as deep as the stale
   * connections in the pool: after a tool gap longer than the keep-alive, 10,000 agents' connections overflowed the
   * event loop's stack and every request hung until its idle timeout. A later task unwinds the stack between two.
   */
  private static Future<Boolean> later(Channel ch, Boolean answer) {
    Promise<Boolean> promise = ch.eventLoop().newPromise();
    ch.eventLoop().execute(() -> promise.setSuccess(answer));
    return promise;
  }

  private long idleLimitNanos(Channel ch) {
    Long server = ch.attr(SERVER_LIMIT).get();
    return server == null ? keepAliveNanos : Math.min(keepAliveNanos, server);
  }

  /** A response's {@code Keep-Alive} header sets the connection's idle limit as {@link #serverLimit} reads it. */
  static void serverKeepAlive(Channel ch, String header) {
    serverLimit(header).ifPresent(limit -> ch.attr(SERVER_LIMIT).set(limit.toNanos()));
  }

  /**
   * The idle limit a {@code Keep-Alive} header such as {@code timeout=5, max=100} sets: its {@code timeout} less
   * {@link #SERVER_TIMEOUT_MARGIN}, at least zero; empty when it has no timeout in whole seconds.
   */
  static Optional<Duration> serverLimit(String header) {
    if (header == null) return Optional.empty();
    for (String part : header.split(",")) {
      int eq = part.indexOf('=');
      if (eq < 0 || !part.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("timeout")) continue;
      try {
        long seconds = Long.parseLong(part.substring(eq + 1).strip().replace("\"", ""));
        if (seconds < 0) return Optional.empty();
        Duration limit = Duration.ofSeconds(Math.min(seconds, Integer.MAX_VALUE)).minus(SERVER_TIMEOUT_MARGIN);
        return Optional.of(limit.isNegative() ? Duration.ZERO : limit);
      } catch (NumberFormatException e) {
        return Optional.empty(); // not whole seconds: nothing we can use
      }
    }
    return Optional.empty();
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
   * An exchange is done with the connection: closed unless it may serve another ({@code reuse}), its server
   * keeps connections open and its idle limit is not zero, else back in {@code pool} after {@link #RELEASE_HOLD}.
   */
  void giveBack(Channel ch, SimpleChannelPool pool, boolean reuse, NettyRoute route) {
    if (!reuse || closesAfterResponse.contains(route) || idleLimitNanos(ch) == 0) {
      ch.close();
      pool.release(ch);
    } else {
      ch.attr(RELEASED_AT).set(System.nanoTime());
      returning.incrementAndGet();
      ch.eventLoop().schedule(() -> pool.release(ch).addListener(f -> returning.decrementAndGet()), RELEASE_HOLD.toNanos(),
          TimeUnit.NANOSECONDS);
    }
  }

  /**
   * How many connections are held before they go back to their pool ({@link #RELEASE_HOLD}): an event to wait on
   * where a sleep would guess how late a busy machine runs the hold's task.
   */
  int returning() {
    return returning.get();
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
