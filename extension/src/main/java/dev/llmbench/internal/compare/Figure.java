package dev.llmbench.internal.compare;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.internal.format.Formats;
import java.util.OptionalDouble;
import org.apiguardian.api.API;

/**
 * One figure two runs can be compared on: a single value such as output throughput, or a latency at a
 * percentile.
 *
 * @param percentile present exactly for latencies
 */
@API(status = INTERNAL)
public record Figure(Metric metric, OptionalDouble percentile) {

  public Figure {
    if (metric.isLatency() != percentile.isPresent()) {
      throw new IllegalArgumentException(metric + (metric.isLatency() ? " needs a percentile" : " takes no percentile"));
    }
  }

  public static Figure of(Metric metric) {
    return new Figure(metric, OptionalDouble.empty());
  }

  public static Figure of(Metric latency, double percentile) {
    return new Figure(latency, OptionalDouble.of(percentile));
  }

  /** {@code output_throughput}, {@code ttft_p50}: how files name it. */
  public String key() {
    return metric.key() + (percentile.isPresent() ? "_" + Formats.percentile(percentile.getAsDouble()) : "");
  }
}
