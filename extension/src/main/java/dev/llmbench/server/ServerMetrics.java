package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * What the server's Prometheus {@code /metrics} said about one level: counter deltas (after minus
 * before) and gauge peaks sampled while the level ran. Series keep their labels, e.g.
 * {@code vllm:num_requests_waiting{model_name="x"}}; {@link #counter(String)} sums across labels.
 *
 * @param family      which server family was recognised: {@code vllm}, {@code llamacpp}, {@code sglang} or {@code unknown}
 * @param deltas      counter (and any other series) value after minus before
 * @param gaugePeaks  the largest value each gauge showed during the level
 * @param samples     how many scrapes were taken during the level
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ServerMetrics(String family, Map<String, Double> deltas, Map<String, Double> gaugePeaks, int samples) {

  /**
   * Copies the maps, sorted by name, so the value cannot change.
   *
   * @param family      which server family was recognised: {@code vllm}, {@code llamacpp}, {@code sglang} or {@code unknown}
   * @param deltas      counter (and any other series) value after minus before
   * @param gaugePeaks  the largest value each gauge showed during the level
   * @param samples     how many scrapes were taken during the level
   */
  public ServerMetrics {
    deltas = Map.copyOf(new TreeMap<>(deltas));
    gaugePeaks = Map.copyOf(new TreeMap<>(gaugePeaks));
  }

  /**
   * {@return the delta of a metric family, summed over its label sets; empty when the server has no such family}
   *
   * @param name the metric family, e.g. {@code vllm:generation_tokens_total}
   */
  public Optional<Double> counter(String name) {
    return sum(deltas, name);
  }

  /**
   * {@return the peak of a gauge family (the largest over its label sets); empty when absent}
   *
   * @param name the metric family, e.g. {@code vllm:num_requests_running}
   */
  public Optional<Double> gaugePeak(String name) {
    return gaugePeaks.entrySet().stream().filter(e -> baseName(e.getKey()).equals(name))
        .map(Map.Entry::getValue).max(Double::compare);
  }

  private static Optional<Double> sum(Map<String, Double> series, String name) {
    return series.entrySet().stream().filter(e -> baseName(e.getKey()).equals(name))
        .map(Map.Entry::getValue).reduce(Double::sum);
  }

  private static String baseName(String series) {
    int brace = series.indexOf('{');
    return brace < 0 ? series : series.substring(0, brace);
  }
}
