package dev.llmbench.internal.compare;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.internal.metrics.Percentiles;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * What a comparison needs of one level, as plain numbers: each successful request's output tokens and
 * E2E latency (for throughput), each latency's samples, and point values for figures whose samples a
 * source did not keep (a vLLM result file without {@code --save-detailed}).
 *
 * @param outputTokens   per successful request, paired with {@code e2eSeconds}
 * @param e2eSeconds     per successful request
 * @param windowSeconds  first request sent to last finished
 * @param latencySeconds samples per latency metric
 * @param points         values by {@link Figure#key()}, in the metric's unit, used where samples are missing
 */
@API(status = INTERNAL)
public record ComparisonSide(double[] outputTokens, double[] e2eSeconds, double windowSeconds, Map<Metric, double[]> latencySeconds,
    Map<String, Double> points) {

  /**
   * The figures a baseline compares by default. ITL is the steadiest sign of decode speed: one sample per
   * token gap, so its median barely moves with a few slow requests.
   */
  public static final List<Metric> COMPARED = List.of(Metric.OUTPUT_THROUGHPUT, Metric.TTFT, Metric.TPOT, Metric.ITL,
      Metric.E2E_LATENCY);

  public ComparisonSide {
    if (outputTokens.length != e2eSeconds.length) throw new IllegalArgumentException("tokens and latencies must pair up");
    latencySeconds = Map.copyOf(latencySeconds);
    points = Map.copyOf(points);
  }

  public static ComparisonSide of(SweepLevelResult level) {
    List<RequestResult> ok = level.requests().stream().filter(RequestResult::succeeded).toList();
    // As the level's own distributions are: over successful requests, queue time over all of them.
    Map<Metric, double[]> latencies = new LinkedHashMap<>();
    latencies.put(Metric.TTFT, seconds(ok, r -> r.ttft().stream()));
    latencies.put(Metric.TTFO, seconds(ok, r -> r.ttfo().stream()));
    latencies.put(Metric.TPOT, seconds(ok, r -> r.tpot().stream()));
    latencies.put(Metric.ITL, seconds(ok, r -> r.itls().stream()));
    latencies.put(Metric.E2E_LATENCY, seconds(ok, r -> Stream.of(r.e2eLatency())));
    latencies.put(Metric.QUEUE_TIME, seconds(level.requests(), r -> Stream.of(r.queueTime())));
    return new ComparisonSide(ok.stream().mapToDouble(RequestResult::outputTokens).toArray(),
        ok.stream().mapToDouble(r -> r.e2eLatency().toNanos() / 1e9).toArray(), level.window().toNanos() / 1e9, latencies,
        Map.of());
  }

  private static double[] seconds(List<RequestResult> requests, Function<RequestResult, Stream<Duration>> f) {
    return requests.stream().flatMap(f).mapToDouble(d -> d.toNanos() / 1e9).toArray();
  }

  /** How many samples back the figure: 1 for a point value, 0 when this level lacks it. */
  public int samples(Figure f) {
    if (f.metric() == Metric.OUTPUT_THROUGHPUT && outputTokens.length > 0 && windowSeconds > 0) return outputTokens.length;
    double[] s = latencySeconds.get(f.metric());
    if (f.percentile().isPresent() && s != null && s.length > 0) return s.length;
    return points.containsKey(f.key()) ? 1 : 0;
  }

  /** The figure's estimate and bootstrap draws, from samples where there are some, else from a point value. */
  Optional<Resampler> resampler(Figure f) {
    if (f.metric() == Metric.OUTPUT_THROUGHPUT && outputTokens.length > 0 && windowSeconds > 0) {
      return Optional.of(new Throughput(outputTokens, e2eSeconds, windowSeconds));
    }
    double[] s = latencySeconds.get(f.metric());
    if (f.percentile().isPresent() && s != null && s.length > 0) {
      return Optional.of(new Latency(s, f.percentile().getAsDouble()));
    }
    Double point = points.get(f.key());
    return point == null ? Optional.empty() : Optional.of(new Point(point));
  }

  /** A statistic and its bootstrap distribution. */
  interface Resampler {
    double estimate();

    double draw(SplittableRandom random);
  }

  /**
   * Output tokens per second over the window. Drawn as {@code in-flight x sum(tokens) / sum(e2e)} over
   * resampled requests, the mean number in flight held at its measured value, as the level's own interval is.
   */
  private record Throughput(double[] tokens, double[] e2e, double window) implements Resampler {
    @Override
    public double estimate() {
      double sum = 0;
      for (double t : tokens) sum += t;
      return sum / window;
    }

    @Override
    public double draw(SplittableRandom random) {
      double inFlight = 0;
      for (double e : e2e) inFlight += e;
      inFlight /= window;
      return inFlight * Bootstrap.resampledRatio(tokens, e2e, random);
    }
  }

  /** A latency percentile, in milliseconds as files report latencies. */
  private record Latency(double[] seconds, double p) implements Resampler {
    @Override
    public double estimate() {
      return Percentiles.of(seconds, p) * 1000;
    }

    @Override
    public double draw(SplittableRandom random) {
      double[] resample = new double[seconds.length];
      for (int i = 0; i < resample.length; i++) resample[i] = seconds[random.nextInt(seconds.length)];
      return Percentiles.of(resample, p) * 1000;
    }
  }

  /** A value without samples: it has no spread of its own. */
  private record Point(double value) implements Resampler {
    @Override
    public double estimate() {
      return value;
    }

    @Override
    public double draw(SplittableRandom random) {
      return value;
    }
  }
}
