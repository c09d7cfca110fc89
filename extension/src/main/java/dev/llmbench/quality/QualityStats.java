package dev.llmbench.quality;

import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.result.ConfidenceInterval;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The statistics of accuracy, formulas and references in docs/quality.md: the Wilson score interval of one
 * proportion, the exact (binomial) McNemar test of paired proportions, and paired bootstrap intervals of the
 * difference and the ratio (through {@link Bootstrap}, as every other interval of LLMBench).
 */
final class QualityStats {

  /** The standard normal's 97.5th percentile: a two-sided 95% interval. */
  static final double Z = 1.959963984540054;

  private QualityStats() {}

  /**
   * Wilson (1927): {@code (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)}, which stays inside [0, 1]
   * and keeps its coverage near 0 and 1, where the normal ("Wald") interval does not.
   */
  public static ConfidenceInterval wilson(int successes, int n) {
    if (n <= 0) return new ConfidenceInterval(0, 0, 1, Bootstrap.LEVEL);
    double p = (double) successes / n;
    double z2 = Z * Z;
    double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = Z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
    // At 0 and n the bounds are exactly 0 and 1; rounding would leave them 1e-17 off.
    double lower = successes == 0 ? 0 : Math.max(0, centre - half);
    double upper = successes == n ? 1 : Math.min(1, centre + half);
    return new ConfidenceInterval(p, lower, upper, Bootstrap.LEVEL);
  }

  /**
   * The exact McNemar test (McNemar 1947; the binomial form, as Fagerland, Lydersen and Laake 2013 recommend
   * for few discordant pairs): with {@code b} and {@code c} the items only one side got right, under no
   * difference {@code b ~ Binomial(b + c, 1/2)}, and the two-sided p-value is
   * {@code min(1, 2 P(X <= min(b, c)))}; 1 when no item flipped.
   */
  public static double mcNemarExact(int b, int c) {
    int n = b + c;
    if (n == 0) return 1;
    BinomialDistribution d = new BinomialDistribution(null, n, 0.5);
    return Math.min(1, 2 * d.cumulativeProbability(Math.min(b, c)));
  }

  /**
   * The 95% paired bootstrap interval of {@code mean(candidate) - mean(reference)}: items resampled with
   * replacement, each keeping both its outcomes (Efron and Tibshirani 1993, the percentile interval).
   *
   * @param reference 1 where the reference got item i right, else 0
   * @param candidate the same for the candidate, item for item
   */
  public static ConfidenceInterval difference(double[] reference, double[] candidate) {
    List<Integer> items = IntStream.range(0, reference.length).boxed().toList();
    return Bootstrap.ratio(items, i -> candidate[i] - reference[i], i -> 1, 1);
  }

  /** The 95% paired bootstrap interval of {@code sum(candidate) / sum(reference)}: recovery. */
  public static ConfidenceInterval recovery(double[] reference, double[] candidate) {
    List<Integer> items = IntStream.range(0, reference.length).boxed().toList();
    return Bootstrap.ratio(items, i -> candidate[i], i -> reference[i], 1);
  }
}
