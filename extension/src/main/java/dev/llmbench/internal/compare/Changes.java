package dev.llmbench.internal.compare;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.Delta;
import dev.llmbench.result.Distribution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Noise-aware changes between two runs of a level. Each run is resampled by itself (bootstrap, fixed
 * seeds, so the same data always gives the same answer), the figure computed on both resamples, and the
 * ratio's 2.5th and 97.5th percentiles bound the change. A figure regressed when even the interval's most
 * favourable end is worse than allowed: noise alone does not fail a run, and neither does a real change
 * smaller than the limit.
 */
@API(status = INTERNAL)
public final class Changes {

  static final int RESAMPLES = 1000;

  /**
   * A latency regresses only when it is also this much worse in milliseconds: below it, a busy client
   * machine's thread scheduling moves a latency as much from one run to the next, whatever the percentage.
   */
  public static final double LATENCY_FLOOR_MS = 2.0;
  private static final long REFERENCE_SEED = 0x5EED_0001L;
  private static final long CURRENT_SEED = 0x5EED_0002L;

  private Changes() {}

  /** The figures of {@code metrics} both levels can be compared on, latencies at each percentile. */
  public static List<Figure> figures(ComparisonSide reference, ComparisonSide current, List<Metric> metrics, List<Double> percentiles) {
    List<Figure> figures = new ArrayList<>();
    for (Metric m : metrics) {
      if (!m.isLatency()) figures.add(Figure.of(m));
      else for (double p : percentiles) figures.add(Figure.of(m, p));
    }
    // A percentile with too few samples is only the maximum: comparing two maxima says little.
    return figures.stream().filter(f -> enough(reference, f) && enough(current, f)).toList();
  }

  private static boolean enough(ComparisonSide s, Figure f) {
    int n = s.samples(f);
    return n == 1 && s.points().containsKey(f.key()) || n >= f.percentile().stream().mapToInt(Distribution::samplesNeeded).max().orElse(2);
  }

  /** Every figure of {@link #figures} that both levels have. */
  public static List<Delta> all(ComparisonSide reference, ComparisonSide current, List<Metric> metrics, List<Double> percentiles,
      double allowedWorsening) {
    return figures(reference, current, metrics, percentiles).stream()
        .flatMap(f -> delta(reference, current, f, allowedWorsening).stream()).toList();
  }

  /**
   * The change of {@code figure} from {@code reference} to {@code current}, or empty when either lacks it or
   * the reference's value is zero.
   *
   * @param allowedWorsening the worsening (a fraction of the reference) that is not yet a regression
   */
  public static Optional<Delta> delta(ComparisonSide reference, ComparisonSide current, Figure figure, double allowedWorsening) {
    Optional<ComparisonSide.Resampler> ref = reference.resampler(figure);
    Optional<ComparisonSide.Resampler> cur = current.resampler(figure);
    if (ref.isEmpty() || cur.isEmpty()) return Optional.empty();
    double r = ref.get().estimate();
    double c = cur.get().estimate();
    if (!(r > 0) || !Double.isFinite(c)) return Optional.empty();
    SplittableRandom refRandom = new SplittableRandom(REFERENCE_SEED);
    SplittableRandom curRandom = new SplittableRandom(CURRENT_SEED);
    double[] ratios = new double[RESAMPLES];
    int n = 0;
    for (int b = 0; b < RESAMPLES; b++) {
      double x = ref.get().draw(refRandom);
      double y = cur.get().draw(curRandom);
      if (x > 0) ratios[n++] = y / x - 1;
    }
    double estimate = c / r - 1;
    double[] drawn = Arrays.copyOf(ratios, n);
    // The interval always holds the estimate, even where a skewed resample distribution would leave it out.
    double lower = n == 0 ? estimate : Math.min(estimate, Percentiles.of(drawn, 2.5));
    double upper = n == 0 ? estimate : Math.max(estimate, Percentiles.of(drawn, 97.5));
    ConfidenceInterval change = new ConfidenceInterval(estimate, lower, upper, 0.95);
    Delta unjudged = new Delta(figure.metric(), figure.percentile(), r, c, change, Delta.Verdict.UNCHANGED);
    return Optional.of(new Delta(figure.metric(), figure.percentile(), r, c, change, verdict(unjudged, allowedWorsening)));
  }

  /** Worsening as a positive fraction: a latency's rise, a throughput's fall. */
  static Delta.Verdict verdict(Delta d, double allowedWorsening) {
    boolean lowerIsBetter = d.lowerIsBetter();
    double worseLow = lowerIsBetter ? d.change().lower() : -d.change().upper();
    double worseHigh = lowerIsBetter ? d.change().upper() : -d.change().lower();
    boolean aboveFloor = !d.metric().isLatency() || worseLow * d.reference() > LATENCY_FLOOR_MS;
    if (worseLow > allowedWorsening && aboveFloor) return Delta.Verdict.REGRESSED;
    if (worseLow > 0) return Delta.Verdict.WORSE;
    if (worseHigh < 0) return Delta.Verdict.IMPROVED;
    return Delta.Verdict.UNCHANGED;
  }
}
