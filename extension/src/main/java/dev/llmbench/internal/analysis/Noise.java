package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.Distribution;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How far two readings must differ before the analysis calls it a difference: by more than the noise
 * of both, each level's own 95% interval, never less than {@value #FLOOR_PERCENT}% (the clock and
 * scheduling resolution of the client; a bootstrap over identical requests gives an interval of almost
 * nothing). Two independent readings with half-widths a and b differ beyond noise when
 * {@code |x - y| > sqrt(a² + b²)}: about a 5% test on the difference.
 */
@API(status = INTERNAL)
public final class Noise {

  /** The least relative noise assumed for any reading. */
  public static final double FLOOR = 0.01;
  static final int FLOOR_PERCENT = 1;

  /** Noise assumed for a level that came without per-request data (a summary table): its interval is unknown. */
  public static final double ASSUMED = 0.05;

  /** The least absolute noise of a latency: the client's own timing resolution on a loaded machine. */
  public static final Duration LATENCY_FLOOR = Duration.ofMillis(1);

  private Noise() {}

  /** Whether the level's output throughput comes with an interval from its own requests. */
  public static boolean known(SweepLevelResult l) {
    double h = l.outputThroughputCi().relativeHalfWidth();
    return !Double.isNaN(h) && !Double.isInfinite(h) && l.requestCount() > 1;
  }

  /**
   * Relative half-width of the level's output throughput, floored; for a level read from a summary, the noise
   * its own spread implies ({@link Derived#noise}); {@link #ASSUMED} when neither is known.
   */
  public static double throughput(SweepLevelResult l) {
    if (known(l)) return Math.max(FLOOR, l.outputThroughputCi().relativeHalfWidth());
    return Derived.of(l).flatMap(Derived::noise).orElse(ASSUMED);
  }

  /** Whether the level's throughput noise comes from its requests' interval or, for a summary, from its spread. */
  public static boolean fromData(SweepLevelResult l) {
    return known(l) || Derived.of(l).flatMap(Derived::noise).isPresent();
  }

  /** Whether {@code a} and {@code b}, with relative half-widths {@code ha} and {@code hb}, differ beyond noise. */
  public static boolean differ(double a, double ha, double b, double hb) {
    return Math.abs(a - b) > Math.hypot(a * ha, b * hb);
  }

  /** The output throughputs of two levels differ beyond the noise of both. */
  public static boolean throughputsDiffer(SweepLevelResult a, SweepLevelResult b) {
    return differ(a.outputThroughput().perSecond(), throughput(a), b.outputThroughput().perSecond(), throughput(b));
  }

  /**
   * The least difference in a latency worth reading at this level: {@link #LATENCY_FLOOR}, or the client's own
   * wake-up lag (p90) while it ran, when that was longer: every time the client took may be off by as much.
   */
  public static double latencyFloorNanos(SweepLevelResult l) {
    return Math.max(LATENCY_FLOOR.toNanos(), l.clientLoad().map(c -> (double) c.wakeupLagP90().toNanos()).orElse(0.0));
  }

  /**
   * Absolute half-width of a latency median: its bootstrap interval when the level kept its samples; for a
   * summary, 1.96 x its spread's deviation / sqrt(n) (times 1.2533 for a median), else {@link #ASSUMED} of the
   * value; never below the timing floor ({@link #latencyFloorNanos}, spread over
   * a request's tokens for TPOT) or {@link #FLOOR} of it.
   */
  public static double medianNanos(SweepLevelResult l, Metric latency) {
    Distribution d = latency.distributionOf(l);
    boolean summary = Derived.summary(l);
    // A summary without a median is read by its mean (Figures.centre).
    double median = d.percentile(50).or(() -> summary ? d.mean() : Optional.empty()).map(Duration::toNanos).orElse(0L);
    double h = median * ASSUMED;
    if (d.count() > 1 && !l.requests().isEmpty()) {
      ConfidenceInterval ci = l.percentileCi(latency, 50);
      if (!Double.isNaN(ci.lower())) h = (ci.upper() - ci.lower()) / 2;
    } else if (summary) {
      double sigma = Derived.sigmaNanos(l, latency);
      if (!Double.isNaN(sigma)) h = 1.96 * sigma * (d.percentile(50).isPresent() ? 1.2533 : 1) / Math.sqrt(l.succeeded());
    }
    return Math.max(h, Math.max(floorNanos(l, latency), median * FLOOR));
  }

  /**
   * The timing floor of one latency: TPOT spreads a request's two timestamps over its tokens, so their
   * error shrinks with them; every other latency carries it whole.
   */
  static double floorNanos(SweepLevelResult l, Metric latency) {
    double floor = latencyFloorNanos(l);
    if (latency != Metric.TPOT || l.succeeded() == 0) return floor;
    double tokens = (double) l.outputTokens() / l.succeeded();
    return floor / Math.max(1, tokens - 1);
  }
}
