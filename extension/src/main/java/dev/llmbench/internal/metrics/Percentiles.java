package dev.llmbench.internal.metrics;

import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;

/** Percentiles as numpy computes them by default (linear interpolation, Hyndman-Fan type 7), and their sample needs. */
public final class Percentiles {

  private Percentiles() {}

  /** The {@code p}-th percentile (0 < p <= 100) of {@code values}, which need not be sorted. NaN when empty. */
  public static double of(double[] values, double p) {
    if (values.length == 0) return Double.NaN;
    if (p <= 0 || p > 100) throw new IllegalArgumentException("percentile must be in (0, 100], was " + p);
    return new Percentile().withEstimationType(EstimationType.R_7).evaluate(values, p);
  }

  /**
   * The fewest samples for which the {@code p}-th percentile is more than the largest sample: p99 needs
   * 100, p99.9 needs 1000, p90 needs 10. Below that it is only the maximum (guidellm#243).
   */
  public static int samplesNeeded(double p) {
    if (p >= 100) return 1;
    return (int) Math.ceil(100.0 / (100.0 - p) - 1e-9);
  }

  /** {@code 99} becomes "p99", {@code 99.9} becomes "p99.9". */
  public static String label(double p) {
    return p == Math.rint(p) ? "p" + (long) p : "p" + String.format(Locale.ROOT, "%s", p);
  }
}
