package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A two-sided confidence interval around an estimate.
 *
 * @param estimate the point estimate (the measured value)
 * @param lower    lower bound
 * @param upper    upper bound
 * @param level    confidence level, e.g. 0.95
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ConfidenceInterval(double estimate, double lower, double upper, double level) {

  /** {@return half the interval's width relative to the estimate, e.g. 0.05 for ±5%} */
  public double relativeHalfWidth() {
    if (estimate == 0) return upper == lower ? 0 : Double.POSITIVE_INFINITY;
    return (upper - lower) / 2 / Math.abs(estimate);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.4g [%.4g, %.4g] (%.0f%% CI)", estimate, lower, upper, level * 100);
  }
}
