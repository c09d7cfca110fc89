package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * One thread that enforces the timeouts of every stream in flight by looking at each a few times per
 * limit, instead of a timer per stream that every read would have to reset. Also the registry of what is
 * in flight, for cancelling.
 */
@API(status = INTERNAL)
public final class StreamWatchdog implements AutoCloseable {

  /** Something in flight that may have run out of time. */
  public interface Watched {
    void check(long nowNanos);
  }

  private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
  private final long tickNanos;
  private final Thread thread;
  private volatile boolean closed;

  /** Checks every {@code tick}: a timeout fires at most one tick late. */
  public StreamWatchdog(String name, Duration tick) {
    this.tickNanos = tick.toNanos();
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** A tick of a twentieth of the shortest limit, between 5 ms and 250 ms. */
  public static Duration tickFor(Timeouts t) {
    long shortest = Math.min(t.idle().toNanos(), t.request().toNanos());
    return Duration.ofNanos(Math.max(5_000_000L, Math.min(250_000_000L, shortest / 20)));
  }

  public void add(Watched w) {
    watched.add(w);
  }

  public void remove(Watched w) {
    watched.remove(w);
  }

  public int size() {
    return watched.size();
  }

  public void forEach(Consumer<Watched> action) {
    watched.forEach(action);
  }

  private void run() {
    while (!closed) {
      LockSupport.parkNanos(tickNanos);
      long now = System.nanoTime();
      for (Watched w : watched) {
        try {
          w.check(now);
        } catch (RuntimeException e) {
          // A bug in one stream's check must not stop the timeouts of all the others.
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
  }
}
