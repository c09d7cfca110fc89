package dev.llmbench.internal.junit;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/** A sweep's points of load, checked: its concurrencies, its rates, or a source's timed replay. */
final class LoadPoints {

  /**
   * One point of load and how its display name and automatic sizes follow from it.
   *
   * @param autoRequests requests when {@code @Measurement(requests)} is automatic
   * @param autoWarmup   warm-up requests when {@code @Warmup(requests)} is automatic
   * @param prompts      the point's own requests (a replay's, at their own times), or null for the sweep's
   */
  record Point(LoadShape load, String placeholder, String value, int autoRequests, int autoWarmup, PromptSource prompts) {}

  private LoadPoints() {}

  static List<Point> closed(List<Integer> levels) {
    if (levels.isEmpty()) {
      throw new IllegalArgumentException("@ConcurrencySweep must list at least one level, e.g. @ConcurrencySweep({1, 2, 4, 8})");
    }
    Set<Integer> seen = new HashSet<>();
    List<Point> points = new ArrayList<>();
    for (int c : levels) {
      if (c < 1) throw new IllegalArgumentException("every level must be a positive concurrency, but " + levels + " has " + c);
      if (!seen.add(c)) throw new IllegalArgumentException("level " + c + " is listed twice in " + levels + "; list each once");
      points.add(new Point(new LoadShape.ClosedLoop(c), ConcurrencySweep.CONCURRENCY_PLACEHOLDER, Integer.toString(c),
          c * autoRounds(c), c, null));
    }
    return points;
  }

  /**
   * Whole rounds, so that C requests are in flight from the first send to the last round: at least
   * {@value Measurement#MIN_ROUNDS}, and at least 10 requests for p90.
   */
  static int autoRounds(int concurrency) {
    return Math.max(Measurement.MIN_ROUNDS, (10 + concurrency - 1) / concurrency);
  }

  static List<Point> open(List<Double> rates, double burstiness, int maxConcurrency) {
    if (rates.isEmpty()) throw new IllegalArgumentException("@RateSweep must list at least one rate, e.g. @RateSweep({1, 2, 4})");
    if (!(burstiness > 0)) {
      throw new IllegalArgumentException("'burstiness' must be positive (1 is Poisson), was " + Formats.number(burstiness));
    }
    if (maxConcurrency < 0) {
      throw new IllegalArgumentException("'maxConcurrency' must be 0 (no cap) or positive, was " + maxConcurrency);
    }
    OptionalInt cap = maxConcurrency == 0 ? OptionalInt.empty() : OptionalInt.of(maxConcurrency);
    Set<Double> seen = new HashSet<>();
    List<Point> points = new ArrayList<>();
    List<String> written = rates.stream().map(Formats::number).toList(); // as the annotation has them: 2, not 2.0
    for (double r : rates) {
      if (!(r > 0) || Double.isInfinite(r)) {
        throw new IllegalArgumentException("every rate must be a positive number of requests per second, but " + written
            + " has " + Formats.number(r));
      }
      if (!seen.add(r)) throw new IllegalArgumentException("rate " + Formats.number(r) + " is listed twice in " + written + "; list each once");
      points.add(new Point(new LoadShape.OpenLoop(Rate.requestsPerSecond(r), burstiness, cap),
          RateSweep.RATE_PLACEHOLDER, Formats.number(r), Math.max(10, (int) Math.ceil(10 * r)), 2, null));
    }
    return points;
  }

  /** A source's timed replay: one point per level it plans, at its own times. */
  static List<Point> replay(WorkloadSource.Replay replay) {
    return replay.levels().stream().map(l -> new Point(l.load(), replay.placeholder(), l.value(), l.requests(), 2,
        l.prompts())).toList();
  }
}
