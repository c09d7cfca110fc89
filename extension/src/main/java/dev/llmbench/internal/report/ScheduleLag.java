package dev.llmbench.internal.report;

import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import java.time.Duration;

/**
 * How a level's schedule lag (send minus due, {@code SweepLevelResult.scheduleLag()}) is written for people: every
 * open loop's reading, a trace's or a rate's, so the reports' own and no feature's.
 */
final class ScheduleLag {

  private ScheduleLag() {}

  /** {@code p50 85 µs, p99 1.2 ms, max 3.4 ms (200 requests)}. */
  static String describe(Distribution lag) {
    return "p50 " + Formats.duration(lag.percentile(50).orElse(Duration.ZERO)) + ", p99 "
        + Formats.duration(lag.percentile(99).orElse(Duration.ZERO)) + (lag.supports(99) ? "" : "*") + ", max "
        + Formats.duration(lag.max().orElse(Duration.ZERO)) + " (" + lag.count() + " requests)";
  }
}
