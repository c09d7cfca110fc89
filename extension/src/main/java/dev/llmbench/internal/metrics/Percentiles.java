package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;
import org.apiguardian.api.API;

/** Percentiles as numpy computes them by default: linear interpolation, Hyndman-Fan type 7. */
@API(status = INTERNAL)
public final class Percentiles {

  private Percentiles() {}

  /** The {@code p}-th percentile (0 < p <= 100) of {@code values}, which need not be sorted. NaN when empty. */
  public static double of(double[] values, double p) {
    if (values.length == 0) return Double.NaN;
    if (p <= 0 || p > 100) throw new IllegalArgumentException("percentile must be in (0, 100], was " + p);
    return new Percentile().withEstimationType(EstimationType.R_7).evaluate(values, p);
  }
}
