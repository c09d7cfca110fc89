package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.result.ConfidenceInterval;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.apiguardian.api.API;

/**
 * Percentile-bootstrap confidence intervals with a fixed seed, so the same samples always give the same
 * interval.
 */
@API(status = INTERNAL)
public final class Bootstrap {

  public static final int RESAMPLES = 1000;
  public static final double LEVEL = 0.95;
  private static final long SEED = 0x5EED_11B3L;

  private Bootstrap() {}

  /** Interval for the {@code p}-th percentile of {@code samples}; empty-safe (NaN bounds). */
  public static ConfidenceInterval percentile(double[] samples, double p) {
    double estimate = Percentiles.of(samples, p);
    if (samples.length < 2) return new ConfidenceInterval(estimate, estimate, estimate, LEVEL);
    SplittableRandom random = new SplittableRandom(SEED);
    double[] stats = new double[RESAMPLES];
    double[] resample = new double[samples.length];
    for (int b = 0; b < RESAMPLES; b++) {
      for (int i = 0; i < resample.length; i++) resample[i] = samples[random.nextInt(samples.length)];
      stats[b] = Percentiles.of(resample, p);
    }
    return interval(estimate, stats);
  }

  /**
   * Interval for a ratio of sums over items, {@code scale * sum(numerator) / sum(denominator)}, resampling
   * items with replacement. Output throughput is {@code (sum tokens / sum e2e) * (sum e2e / window)}: the
   * second factor, the mean number of requests in flight, is held at its measured value.
   */
  public static <T> ConfidenceInterval ratio(List<T> items, ToDoubleFunction<T> numerator,
      ToDoubleFunction<T> denominator, double scale) {
    double num = items.stream().mapToDouble(numerator).sum();
    double den = items.stream().mapToDouble(denominator).sum();
    double estimate = den == 0 ? 0 : scale * num / den;
    if (items.size() < 2) return new ConfidenceInterval(estimate, estimate, estimate, LEVEL);
    double[] nums = items.stream().mapToDouble(numerator).toArray();
    double[] dens = items.stream().mapToDouble(denominator).toArray();
    SplittableRandom random = new SplittableRandom(SEED);
    double[] stats = new double[RESAMPLES];
    for (int b = 0; b < RESAMPLES; b++) stats[b] = scale * resampledRatio(nums, dens, random);
    return interval(estimate, stats);
  }

  /** {@code sum(nums) / sum(dens)} over one resample of the items with replacement; 0 when the sum of dens is. */
  public static double resampledRatio(double[] nums, double[] dens, SplittableRandom random) {
    double n = 0;
    double d = 0;
    for (int i = 0; i < nums.length; i++) {
      int k = random.nextInt(nums.length);
      n += nums[k];
      d += dens[k];
    }
    return d == 0 ? 0 : n / d;
  }

  private static ConfidenceInterval interval(double estimate, double[] stats) {
    double alpha = (1 - LEVEL) / 2 * 100;
    return new ConfidenceInterval(estimate, Percentiles.of(stats, Math.max(alpha, 1e-9)),
        Percentiles.of(stats, 100 - alpha), LEVEL);
  }
}
