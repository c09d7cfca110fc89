package dev.llmbench.internal.load;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * What the client's event loops hand the thread that runs a level (completions), and that thread's wait for them.
 * Lock-free, and the run's thread parks on its own: a queue with a lock would make it wait, at a due time, for an
 * event loop preempted holding that lock (on a busy machine, a scheduler's round).
 *
 * @param <T> what is handed over
 */
final class Mailbox<T> {

  private final Queue<T> items = new ConcurrentLinkedQueue<>();
  private final Thread owner = Thread.currentThread();
  private volatile boolean parked;

  /** Hands {@code item} over, from any thread, waking the owner if it waits. */
  void add(T item) {
    items.add(item);
    if (parked) LockSupport.unpark(owner);
  }

  /** The next item, or null when there is none now. */
  T poll() {
    return items.poll();
  }

  boolean isEmpty() {
    return items.isEmpty();
  }

  /** The next item, or null once {@code wakeAt} has come ({@code Long.MAX_VALUE}: only an item ends the wait). */
  T await(long wakeAt) throws InterruptedException {
    while (true) {
      T item = items.poll();
      if (item != null) return item;
      long left = wakeAt == Long.MAX_VALUE ? Long.MAX_VALUE : wakeAt - System.nanoTime();
      if (left <= 0) return null;
      parked = true;
      item = items.poll(); // one may have come before parked was seen: it would not unpark
      if (item != null) {
        parked = false;
        return item;
      }
      if (left == Long.MAX_VALUE) {
        LockSupport.park(this);
      } else {
        LockSupport.parkNanos(this, left);
      }
      parked = false;
      if (Thread.interrupted()) throw new InterruptedException();
    }
  }
}
