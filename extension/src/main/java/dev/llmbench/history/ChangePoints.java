package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.TDistribution;
import org.apiguardian.api.API;

/**
 * Change points of one series by E-divisive means, as Apache Otava finds them (ported from its description and
 * its Python, {@code otava/analysis.py} and {@code otava/change_point_divisive/}; not its code):
 *
 * <ul>
 *   <li>{@link Significance#T_TEST} (the default, Fleming et al., "Hunter: Using Change Point Detection to Hunt for
 *       Performance Regressions", ICPE 2023): the <em>split</em> step runs E-divisive in windows of
 *       {@link ChangePointSettings#window()} points that advance by half a window (or to the last change point
 *       found), each candidate judged by Student's t-test at ten times the p-value asked for; the union of those
 *       <em>weak</em> change points then goes through the <em>merge</em> step, which removes the weakest (the
 *       largest p-value at or above the one asked for, else the smallest magnitude at or below the least asked for)
 *       and recomputes the point that took its place and the next, as Otava does, until every one left passes both.
 *       The points kept are then reported with the statistics between their final neighbours.</li>
 *   <li>{@link Significance#PERMUTATION} (Matteson and James's original): E-divisive over the whole series, each
 *       candidate kept while at most {@code maxPValue} of seeded permutations inside each stretch reach its
 *       statistic; then, unlike Otava, those below {@code minMagnitude} are dropped.</li>
 * </ul>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ChangePoints {

  private ChangePoints() {}

  /**
   * {@return the change points of {@code series} with Otava's defaults}
   *
   * @param series the values, oldest first; none may be NaN
   */
  public static List<ChangePoint> detect(double[] series) {
    return detect(series, ChangePointSettings.DEFAULTS);
  }

  /**
   * {@return the change points of {@code series}, in order of index}
   *
   * @param series   the values, oldest first; none may be NaN
   * @param settings how to search
   */
  public static List<ChangePoint> detect(double[] series, ChangePointSettings settings) {
    for (int i = 0; i < series.length; i++) {
      if (Double.isNaN(series[i]) || Double.isInfinite(series[i])) {
        throw new IllegalArgumentException("series[" + i + "] is " + series[i] + ": a series holds finite values only");
      }
    }
    if (settings.significance() == Significance.PERMUTATION) {
      Tester tester = new PermutationTester(settings.maxPValue(), settings.permutations(), settings.seed());
      List<ChangePoint> found = divide(series, 0, series.length, tester);
      return found.stream().filter(c -> c.magnitude() >= settings.minMagnitude()).toList();
    }
    double firstPass = settings.maxPValue() < 0.05 ? settings.maxPValue() * 10
        : settings.maxPValue() < 0.5 ? settings.maxPValue() * 2 : settings.maxPValue();
    List<ChangePoint> weak = split(series, settings.window(), firstPass);
    return merge(weak, series, settings.maxPValue(), settings.minMagnitude());
  }

  /** Judges a candidate that splits an interval into the stretches before and after it. */
  private interface Tester {
    ChangePoint judge(EDivisive.Candidate candidate, EDivisive calculator, List<int[]> intervals, int left, int mid, int right);

    double maxPValue();
  }

  /** Student's two-sided t-test with pooled variance, as scipy's ttest_ind_from_stats given population deviations. */
  private record TTester(double maxPValue) implements Tester {
    @Override
    public ChangePoint judge(EDivisive.Candidate candidate, EDivisive calculator, List<int[]> intervals, int left, int mid, int right) {
      return compare(calculator.series(), candidate.index(), candidate.qhat(), left, mid, right);
    }
  }

  /** The permutation test of the original E-divisive, seeded. */
  private static final class PermutationTester implements Tester {
    private final double maxPValue;
    private final int permutations;
    private final SplittableRandom random;

    PermutationTester(double maxPValue, int permutations, long seed) {
      this.maxPValue = maxPValue;
      this.permutations = permutations;
      this.random = new SplittableRandom(seed);
    }

    @Override
    public double maxPValue() {
      return maxPValue;
    }

    @Override
    public ChangePoint judge(EDivisive.Candidate candidate, EDivisive calculator, List<int[]> intervals, int left, int mid, int right) {
      double[] series = calculator.series();
      int extreme = 0;
      for (int p = 0; p < permutations; p++) {
        double[] shuffled = series.clone();
        for (int[] interval : intervals) shuffle(shuffled, interval[0], interval[1]);
        EDivisive.Candidate best = best(new EDivisive(shuffled), intervals);
        if (best != null && best.qhat() >= candidate.qhat()) extreme++;
      }
      ChangePoint stats = compare(series, candidate.index(), candidate.qhat(), left, mid, right);
      return withPValue(stats, extreme / (permutations + 1.0));
    }

    private void shuffle(double[] values, int from, int to) {
      for (int i = to - 1; i > from; i--) {
        int j = from + random.nextInt(i - from + 1);
        double t = values[i];
        values[i] = values[j];
        values[j] = t;
      }
    }
  }

  /** The best candidate over the intervals that hold two points or more; ties keep the first interval's. */
  private static EDivisive.Candidate best(EDivisive calculator, List<int[]> intervals) {
    EDivisive.Candidate best = null;
    for (int[] interval : intervals) {
      if (interval[1] - interval[0] < 2) continue;
      EDivisive.Candidate c = calculator.candidate(interval[0], interval[1]);
      if (best == null || c.qhat() > best.qhat()) best = c;
    }
    return best;
  }

  /** The stretches between the change points (sorted), within [from, to), empty ones left out. */
  private static List<int[]> intervals(List<ChangePoint> points, int from, int to) {
    List<int[]> intervals = new ArrayList<>();
    int start = from;
    for (ChangePoint c : points) {
      if (c.index() != start) intervals.add(new int[] {start, c.index()});
      start = c.index();
    }
    if (start != to) intervals.add(new int[] {start, to});
    return intervals;
  }

  /**
   * E-divisive over {@code series[from, to)}: the best candidate splits its interval while the tester finds it
   * significant. Indices are local to the slice plus {@code from}, as Otava's detector offsets them.
   */
  private static List<ChangePoint> divide(double[] series, int from, int to, Tester tester) {
    double[] slice = Arrays.copyOfRange(series, from, to);
    EDivisive calculator = new EDivisive(slice);
    List<ChangePoint> points = new ArrayList<>();
    while (true) {
      List<int[]> intervals = intervals(points, 0, slice.length);
      EDivisive.Candidate candidate = best(calculator, intervals);
      if (candidate == null) break;
      int[] around = intervals.stream().filter(i -> i[0] < candidate.index() && candidate.index() < i[1]).findFirst()
          .orElseThrow();
      ChangePoint point = tester.judge(candidate, calculator, intervals, around[0], candidate.index(), around[1]);
      if (!(point.pValue() <= tester.maxPValue())) break;
      points.add(point);
      points.sort(Comparator.comparingInt(ChangePoint::index));
    }
    if (from == 0) return points;
    return points.stream().map(c -> shift(c, from)).toList();
  }

  /** Otava's split step: windows that advance by half a window, or to the last change point a window found. */
  private static List<ChangePoint> split(double[] series, int window, double maxPValue) {
    int step = window / 2;
    Tester tester = new TTester(maxPValue);
    List<ChangePoint> points = new ArrayList<>();
    int start = 0;
    while (start < series.length) {
      int end = Math.min(start + window, series.length);
      List<ChangePoint> found = divide(series, start, end, tester);
      int last = found.isEmpty() ? 0 : found.get(found.size() - 1).index();
      start = Math.max(last, start + step);
      for (ChangePoint c : found) {
        if (points.stream().noneMatch(p -> p.index() == c.index())) points.add(c);
      }
    }
    points.sort(Comparator.comparingInt(ChangePoint::index));
    List<ChangePoint> recomputed = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) recomputed.add(between(series, points, i));
    return recomputed;
  }

  /** Otava's merge step: drop the weakest change point and recompute its neighbours until all pass. */
  private static List<ChangePoint> merge(List<ChangePoint> weak, double[] series, double maxPValue, double minMagnitude) {
    List<ChangePoint> points = new ArrayList<>(weak);
    while (!points.isEmpty()) {
      int weakest = 0;
      for (int i = 1; i < points.size(); i++) {
        if (points.get(i).pValue() > points.get(weakest).pValue()) weakest = i;
      }
      if (points.get(weakest).pValue() < maxPValue) {
        weakest = 0;
        for (int i = 1; i < points.size(); i++) {
          if (points.get(i).magnitude() < points.get(weakest).magnitude()) weakest = i;
        }
        if (points.get(weakest).magnitude() > minMagnitude) return settled(series, points);
      }
      points.remove(weakest);
      // As Otava: the point that took the removed one's place, and the next. Its left neighbour keeps the statistics
      // it had (recomputing it too changes which points TigerBeetle's series keeps, against Otava's own tests).
      for (int at = weakest; at <= weakest + 1 && at < points.size(); at++) points.set(at, between(series, points, at));
    }
    return points;
  }

  /** The points Otava chose, each with the statistics of the stretches between its final neighbours, as reported. */
  private static List<ChangePoint> settled(double[] series, List<ChangePoint> points) {
    List<ChangePoint> out = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) out.add(between(series, points, i));
    return out;
  }

  /** The statistics of the i-th change point between its neighbours (or the series' ends). */
  private static ChangePoint between(double[] series, List<ChangePoint> points, int i) {
    int left = i == 0 ? 0 : points.get(i - 1).index();
    int right = i == points.size() - 1 ? series.length : points.get(i + 1).index();
    ChangePoint c = points.get(i);
    return compare(series, c.index(), c.qhat(), left, c.index(), right);
  }

  /** Means, population deviations and the t-test's p-value of [left, mid) against [mid, right). */
  static ChangePoint compare(double[] series, int index, double qhat, int left, int mid, int right) {
    int n1 = mid - left;
    int n2 = right - mid;
    double mean1 = mean(series, left, mid);
    double mean2 = mean(series, mid, right);
    double sd1 = n1 >= 2 ? stdDev(series, left, mid, mean1) : 0;
    double sd2 = n2 >= 2 ? stdDev(series, mid, right, mean2) : 0;
    double p = 1.0;
    if (n1 + n2 > 2) p = tTest(mean1, sd1, n1, mean2, sd2, n2);
    return new ChangePoint(index, qhat, mean1, mean2, sd1, sd2, n1, n2, p);
  }

  /**
   * Two-sided p-value of Student's t with pooled variance. Two constant stretches: 0 when their means differ, 1
   * when equal (scipy says NaN there, which Otava's comparisons treat as never significant).
   */
  static double tTest(double mean1, double sd1, int n1, double mean2, double sd2, int n2) {
    int df = n1 + n2 - 2;
    double pooled = ((n1 - 1) * sd1 * sd1 + (n2 - 1) * sd2 * sd2) / df;
    double denominator = Math.sqrt(pooled * (1.0 / n1 + 1.0 / n2));
    double diff = mean1 - mean2;
    if (denominator == 0) return diff == 0 ? 1.0 : 0.0;
    double t = Math.abs(diff / denominator);
    // No random generator: the distribution is only asked for its CDF.
    return 2 * new TDistribution(null, df).cumulativeProbability(-t);
  }

  private static double mean(double[] values, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) sum += values[i];
    return sum / (to - from);
  }

  private static double stdDev(double[] values, int from, int to, double mean) {
    double sum = 0;
    for (int i = from; i < to; i++) sum += (values[i] - mean) * (values[i] - mean);
    return Math.sqrt(sum / (to - from));
  }

  private static ChangePoint shift(ChangePoint c, int by) {
    return new ChangePoint(c.index() + by, c.qhat(), c.meanBefore(), c.meanAfter(), c.stdDevBefore(), c.stdDevAfter(),
        c.countBefore(), c.countAfter(), c.pValue());
  }

  private static ChangePoint withPValue(ChangePoint c, double p) {
    return new ChangePoint(c.index(), c.qhat(), c.meanBefore(), c.meanAfter(), c.stdDevBefore(), c.stdDevAfter(),
        c.countBefore(), c.countAfter(), p);
  }
}
