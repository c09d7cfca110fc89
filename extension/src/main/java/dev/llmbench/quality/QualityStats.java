package dev.llmbench.quality;

import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.internal.metrics.Percentiles;
import java.util.Arrays;
import java.util.SplittableRandom;
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

  /**
   * The change of goodput from {@code reference} to {@code candidate} (their ratio minus 1) with its 95% interval.
   * Goodput is drawn as output throughput's interval is: {@code in-flight x sum(good) / sum(e2e)} over resampled
   * requests (good: succeeded and met every objective of the level's SLO), the mean number in flight held at its
   * measured value, so its estimate is the level's goodput. Two levels of different requests, so each is resampled by
   * itself (fixed seeds), as {@code Changes} bounds every other change between two levels.
   */
  public static ConfidenceInterval goodputRatio(MeasuredLevel reference, MeasuredLevel candidate) {
    Goodput ref = Goodput.of(reference);
    Goodput cand = Goodput.of(candidate);
    double estimate = cand.estimate() / ref.estimate() - 1;
    SplittableRandom refRandom = new SplittableRandom(0x5EED_0001L);
    SplittableRandom candRandom = new SplittableRandom(0x5EED_0002L);
    double[] changes = new double[Bootstrap.RESAMPLES];
    int n = 0;
    for (int b = 0; b < Bootstrap.RESAMPLES; b++) {
      double x = ref.draw(refRandom);
      double y = cand.draw(candRandom);
      if (x > 0) changes[n++] = y / x - 1;
    }
    double[] drawn = Arrays.copyOf(changes, n);
    double lower = n == 0 ? estimate : Math.min(estimate, Percentiles.of(drawn, 2.5));
    double upper = n == 0 ? estimate : Math.max(estimate, Percentiles.of(drawn, 97.5));
    return new ConfidenceInterval(estimate, lower, upper, Bootstrap.LEVEL);
  }

  /** A level's requests as goodput draws them: 1 for a good one, its latency in seconds, and the mean number in flight. */
  private record Goodput(double[] good, double[] e2e, double inFlight) {
    static Goodput of(MeasuredLevel level) {
      double[] good = level.requests().stream().mapToDouble(q -> level.serviceLevels().isMetBy(q) ? 1 : 0).toArray();
      double[] e2e = level.requests().stream().mapToDouble(q -> q.e2eLatency().toNanos() / 1e9).toArray();
      double window = level.window().toNanos() / 1e9;
      return new Goodput(good, e2e, window == 0 ? 0 : Arrays.stream(e2e).sum() / window);
    }

    double estimate() {
      double sum = Arrays.stream(e2e).sum();
      return sum == 0 ? 0 : inFlight * Arrays.stream(good).sum() / sum;
    }

    double draw(SplittableRandom random) {
      return inFlight * Bootstrap.resampledRatio(good, e2e, random);
    }
  }

  /** The 95% paired bootstrap interval of {@code sum(candidate) / sum(reference)}: recovery. */
  public static ConfidenceInterval recovery(double[] reference, double[] candidate) {
    List<Integer> items = IntStream.range(0, reference.length).boxed().toList();
    return Bootstrap.ratio(items, i -> candidate[i], i -> reference[i], 1);
  }
}
