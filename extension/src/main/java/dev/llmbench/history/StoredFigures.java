package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Distribution;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The figures a level leaves in the history, named as files name them: every single-value {@link Metric} by its
 * key ({@code output_throughput}), every latency by key and statistic ({@code ttft.mean}, {@code ttft.p50},
 * {@code ttft.p90}, {@code ttft.p99}, in ms). A figure the level did not measure (no samples, not finite) is left
 * out, so its series has a gap rather than a zero.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class StoredFigures {

  /** The latency percentiles every level stores. */
  static final double[] PERCENTILES = {50, 90, 99};

  private StoredFigures() {}

  /**
   * {@return a level's figures}
   *
   * @param level a measured level
   */
  public static Map<String, StoredFigure> of(SweepLevelResult level) {
    Map<String, StoredFigure> figures = new LinkedHashMap<>();
    for (Metric metric : Metric.values()) {
      if (metric.isLatency()) {
        Distribution d = metric.distributionOf(level);
        if (d == null || d.isEmpty()) continue;
        put(figures, metric.key() + ".mean", d.mean(), metric.unit());
        for (double p : PERCENTILES) put(figures, name(metric, p), d.percentile(p), metric.unit());
      } else {
        double value = metric.valueOf(level);
        if (Double.isFinite(value)) figures.put(metric.key(), new StoredFigure(value, metric.unit()));
      }
    }
    return figures;
  }

  private static void put(Map<String, StoredFigure> figures, String name, Optional<Duration> value, String unit) {
    value.ifPresent(v -> figures.put(name, new StoredFigure(v.toNanos() / 1e6, unit)));
  }

  /**
   * {@return the name of a single-value metric's figure: its key}
   *
   * @param metric a single-value metric
   */
  public static String name(Metric metric) {
    if (metric.isLatency()) {
      throw new IllegalArgumentException(metric + " is a latency distribution: name a statistic, as name(" + metric + ", 99)");
    }
    return metric.key();
  }

  /**
   * {@return the name of a latency's percentile: {@code ttft.p99}, {@code itl.p99.9}}
   *
   * @param metric     a latency metric
   * @param percentile the percentile, 50 for the median
   */
  public static String name(Metric metric, double percentile) {
    if (!metric.isLatency()) throw new IllegalArgumentException(metric + " is a single value: name it without a percentile");
    String p = percentile == Math.rint(percentile) ? String.valueOf((long) percentile)
        : String.valueOf(percentile);
    return metric.key() + ".p" + p;
  }

  /**
   * {@return whether a rise of the figure is good news: throughputs, goodput and SLO attainment rise when things
   * improve; latencies, error and unparsed rates fall; empty for a figure LLMBench does not know}
   *
   * @param figure a figure's name
   */
  static Optional<Boolean> higherIsBetter(String figure) {
    int dot = figure.indexOf('.');
    String key = dot < 0 ? figure : figure.substring(0, dot);
    for (Metric metric : Metric.values()) {
      if (!metric.key().equals(key)) continue;
      if (metric.isLatency() || metric == Metric.ERROR_RATE || metric == Metric.UNPARSED_RATE) return Optional.of(false);
      return Optional.of(true);
    }
    return Optional.empty();
  }

  /** {@return how people read a figure's name: {@code output throughput}, {@code TTFT p99}; unknown names as they are} */
  static String label(String figure) {
    int dot = figure.indexOf('.');
    String key = dot < 0 ? figure : figure.substring(0, dot);
    for (Metric metric : Metric.values()) {
      if (metric.key().equals(key)) return dot < 0 ? metric.label() : metric.label() + " " + figure.substring(dot + 1);
    }
    return figure.toLowerCase(Locale.ROOT).equals(figure) ? figure.replace('_', ' ') : figure;
  }
}
