package dev.llmbench.testkit;

import dev.llmbench.internal.core.SchedStat;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A thread of this JVM that asks to wake every 0.5 ms and keeps when it woke: how long the process ran none of its
 * threads (a collector's pause, the machine's scheduler) is how much later than that it woke. A timing check takes
 * these stalls off a lag it measured, so that a loaded machine does not fail it but a slow client still does: the
 * probe keeps waking on time while the client's own code is slow.
 *
 * <p>It also keeps, at each wake-up, how long the thread that started it (the one that runs the fixtures, and so
 * sends a level's requests) has waited for a core so far (Linux's run-queue wait): a machine busy with other
 * processes keeps a runnable sender waiting while the probe, a sleeper that the kernel wakes first, stays on time.
 *
 * <p>Fixtures run inside {@link BenchKit}, so a test starts the probe with {@link #during} and its fixture reads
 * it with {@link #current()}; test classes run one after another in a JVM, never side by side.
 */
public final class WakeProbe implements AutoCloseable {

  private static volatile WakeProbe current;
  private static final long PERIOD_NANOS = 500_000;
  /** How late a wake-up may be and still be on time: a parked thread wakes some 50-100 µs late on a quiet machine. */
  private static final long ON_TIME_NANOS = 1_000_000;
  private final long[] woke = new long[1 << 18];
  /** The sender's run-queue wait (ns) at each wake-up; all zero off Linux. */
  private final long[] senderWaited = new long[1 << 18];
  private final Optional<Path> senderStat = SchedStat.ofCurrentThread();
  private volatile int count;
  private volatile boolean stopped;
  private final Thread thread = new Thread(this::run, "testkit-wake-probe");

  private WakeProbe() {}

  /** Runs {@code work} with a probe started before it and stopped after it, {@link #current()} meanwhile. */
  public static <T> T during(Supplier<T> work) {
    WakeProbe p = new WakeProbe();
    p.thread.setDaemon(true);
    p.thread.start();
    while (p.count == 0) LockSupport.parkNanos(PERIOD_NANOS); // from its first wake-up on, a stall shows
    current = p;
    try {
      return work.get();
    } finally {
      current = null;
      p.close();
    }
  }

  /** The probe of the {@link #during} that runs now; fails when none does. */
  public static WakeProbe current() {
    WakeProbe p = current;
    if (p == null) throw new IllegalStateException("no probe runs: start one with WakeProbe.during(...) around the run");
    return p;
  }

  private void run() {
    while (!stopped && count < woke.length) {
      LockSupport.parkNanos(PERIOD_NANOS);
      woke[count] = System.nanoTime();
      senderWaited[count] = senderStat.flatMap(SchedStat::read).map(SchedStat::waitNanos).orElse(0L);
      count = count + 1; // the volatile write publishes the entry
    }
  }

  /**
   * How long between {@code from} and {@code to} the process ran none of its threads, all its stalls added up: a
   * wake-up more than 1 ms later than the probe's period after the one before is a stall from then to it (the
   * on-time part left out, so that a quiet machine's many small lates never add up to a stall). A send held back by
   * one stall after another (the process ran only in between) was late by their sum, which no single wake-up shows.
   */
  public long stalledBetween(long from, long to) {
    int k = firstWakeAtOrAfter(from);
    firstWakeAtOrAfter(to); // every stall up to it is known
    if (k == 0) throw new IllegalStateException("the probe started after " + from);
    long stalled = 0;
    for (; k < count && woke[k - 1] + PERIOD_NANOS < to; k++) {
      long start = Math.max(from, woke[k - 1] + PERIOD_NANOS + ON_TIME_NANOS);
      long end = Math.min(to, woke[k]);
      if (end > start) stalled += end - start;
    }
    return stalled;
  }

  /**
   * How long between {@code from} and {@code to} the sender (the thread that started the probe) was held: the
   * process's stalls ({@link #stalledBetween}) or the sender's own wait for a core, whichever is longer (they
   * overlap: a stall of the process is a wait of each of its threads). The wait is counted only between the
   * probe's wake-ups inside the span, so it is never more than the sender waited there.
   */
  public long heldBetween(long from, long to) {
    long stalled = stalledBetween(from, to);
    int first = firstWakeAtOrAfter(from);
    int last = firstWakeAtOrAfter(to);
    if (woke[last] > to) last--;
    long waited = last > first ? senderWaited[last] - senderWaited[first] : 0;
    return Math.max(stalled, waited);
  }

  /** The index of the probe's first wake-up at or after {@code nanos}, waiting for it if it has not come yet. */
  private int firstWakeAtOrAfter(long nanos) {
    while (true) {
      int n = count;
      int k = Arrays.binarySearch(woke, 0, n, nanos);
      if (k < 0) k = -k - 1;
      if (k < n) return k;
      if (stopped || n == woke.length) throw new IllegalStateException("the probe stopped before " + nanos);
      LockSupport.parkNanos(PERIOD_NANOS); // it has not woken since: wait for it
    }
  }

  /** Stops the probe and waits for its thread to end. */
  @Override
  public void close() {
    stopped = true;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
