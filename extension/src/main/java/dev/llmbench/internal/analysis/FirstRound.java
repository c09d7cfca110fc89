package dev.llmbench.internal.analysis;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.metrics.Percentiles;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether a closed-loop level's first round (its first C requests) is an outlier against its settled part,
 * the second half of its requests (at least one round, by send order): the first round's median is above
 * three quarters of the settled requests, and above their median by more than {@value #Z} robust standard
 * deviations (1.4826 x the median absolute deviation: Iglewicz and Hoaglin's modified z-score), never
 * counting a deviation below the client's timing floor ({@link Noise#latencyFloorNanos}); and its excess
 * over that median, which holds the whole window up by about as much, is more than {@value #MATTERS} of the
 * window. The settled part leaves out the rounds right after
 * the first, which a cold path that spans a round boundary (a worker that started late) still reaches.
 *
 * @param metric      TTFT or E2E latency
 * @param firstMedian the first round's median
 * @param laterMedian the settled requests' median
 * @param laterMax    the slowest settled request
 * @param z           how many robust deviations the first round sits above the settled median
 */
record FirstRound(Metric metric, Duration firstMedian, Duration laterMedian, Duration laterMax, double z) {

  static final double Z = 3.5;
  static final double MATTERS = 0.02;

  /** The first metric (TTFT, then E2E latency) whose first round is an outlier; empty when none is. */
  static Optional<FirstRound> outlier(SweepLevelResult l) {
    if (!Figures.closed(l) || l.requests().size() < 2L * l.concurrency()) return Optional.empty();
    List<RequestResult> first = l.requests().subList(0, l.concurrency()).stream().filter(RequestResult::succeeded).toList();
    int settled = Math.max(l.concurrency(), l.requests().size() / 2);
    List<RequestResult> later = l.requests().subList(settled, l.requests().size()).stream()
        .filter(RequestResult::succeeded).toList();
    if (first.isEmpty() || later.size() < 2) return Optional.empty();
    double floor = Noise.latencyFloorNanos(l);
    // A slow first round holds up a closed loop's window by about its excess: below 2% of the window it does not
    // change what the level reads, however sure the outlier. (Not the level's own noise: the outlier widens that.)
    double matters = MATTERS * l.window().toNanos();
    Optional<FirstRound> ttft = check(Metric.TTFT, first, later, r -> r.ttft().orElse(null), floor, matters);
    return ttft.isPresent() ? ttft : check(Metric.E2E_LATENCY, first, later, RequestResult::e2eLatency, floor, matters);
  }

  private static Optional<FirstRound> check(Metric metric, List<RequestResult> first, List<RequestResult> later,
      Function<RequestResult, Duration> value, double floorNanos, double mattersNanos) {
    double[] a = nanos(first, value);
    double[] b = nanos(later, value);
    if (a.length == 0 || b.length < 2) return Optional.empty();
    double firstMedian = median(a);
    double laterMedian = median(b);
    double laterMax = b[b.length - 1];
    double laterUpperQuartile = Percentiles.of(b, 75);
    double[] deviations = Arrays.stream(b).map(v -> Math.abs(v - laterMedian)).sorted().toArray();
    double spread = Math.max(1.4826 * median(deviations), Math.max(floorNanos, Noise.FLOOR * laterMedian));
    double z = (firstMedian - laterMedian) / spread;
    if (firstMedian <= laterUpperQuartile || z <= Z || firstMedian - laterMedian < mattersNanos) return Optional.empty();
    return Optional.of(new FirstRound(metric, Duration.ofNanos(Math.round(firstMedian)),
        Duration.ofNanos(Math.round(laterMedian)), Duration.ofNanos(Math.round(laterMax)), z));
  }

  private static double[] nanos(List<RequestResult> requests, Function<RequestResult, Duration> value) {
    return requests.stream().map(value).filter(d -> d != null).mapToDouble(Duration::toNanos).sorted().toArray();
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
