package dev.llmbench.testkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * How late this machine wakes a sleeping thread right now, so that timing checks can hold their tolerance
 * on a quiet machine and widen it by exactly the noise a loaded 2-core runner adds, no more.
 *
 * @param p50 median lateness of a 5 ms sleep
 * @param p90 90th percentile of that lateness
 */
public record Timing(Duration p50, Duration p90) {

  private static final int SAMPLES = 40;
  private static final long SLEEP = 5_000_000;

  /** Measures 40 sleeps of 5 ms (200 ms in all). */
  public static Timing measure() {
    long[] late = new long[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      long start = System.nanoTime();
      LockSupport.parkNanos(SLEEP);
      late[i] = Math.max(0, System.nanoTime() - start - SLEEP);
    }
    Arrays.sort(late);
    return new Timing(Duration.ofNanos(late[SAMPLES / 2]), Duration.ofNanos(late[SAMPLES * 9 / 10]));
  }
}
