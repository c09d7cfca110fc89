package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * What the server's Prometheus {@code /metrics} said about one level: counter deltas (after minus
 * before), and gauge peaks and means sampled while the level ran. Series keep their labels, e.g.
 * {@code vllm:num_requests_waiting{model_name="x"}}; {@link #counter(String)} sums across labels.
 * {@link ServerFigures} reads speculation, the KV cache, preemptions and the queue from it.
 *
 * @param family      which server family was recognised: {@code vllm}, {@code llamacpp}, {@code sglang} or {@code unknown}
 * @param deltas      counter (and any other series) value after minus before
 * @param gaugePeaks  the largest value each gauge showed during the level
 * @param samples     how many scrapes were taken during the level
 * @param gaugeMeans  the mean of each gauge over the scrapes taken while the level ran (the one after it, when none was)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ServerMetrics(String family, Map<String, Double> deltas, Map<String, Double> gaugePeaks, int samples,
    Map<String, Double> gaugeMeans) {

  /**
   * Copies the maps, sorted by name, so the value cannot change; a level written before gauge means were kept reads
   * back with none.
   *
   * @param family      which server family was recognised: {@code vllm}, {@code llamacpp}, {@code sglang} or {@code unknown}
   * @param deltas      counter (and any other series) value after minus before
   * @param gaugePeaks  the largest value each gauge showed during the level
   * @param samples     how many scrapes were taken during the level
   * @param gaugeMeans  the mean of each gauge over the scrapes taken while the level ran (the one after it, when none was)
   */
  public ServerMetrics {
    deltas = Map.copyOf(new TreeMap<>(deltas));
    gaugePeaks = Map.copyOf(new TreeMap<>(gaugePeaks));
    gaugeMeans = gaugeMeans == null ? Map.of() : Map.copyOf(new TreeMap<>(gaugeMeans));
  }

  /**
   * Without gauge means.
   *
   * @param family      which server family was recognised
   * @param deltas      counter (and any other series) value after minus before
   * @param gaugePeaks  the largest value each gauge showed during the level
   * @param samples     how many scrapes were taken during the level
   */
  public ServerMetrics(String family, Map<String, Double> deltas, Map<String, Double> gaugePeaks, int samples) {
    this(family, deltas, gaugePeaks, samples, Map.of());
  }

  /**
   * {@return the mean of a gauge family over the level, summed over its label sets (one per engine or rank: the
   * server's total); empty when absent}
   *
   * @param name the metric family, e.g. {@code vllm:num_requests_waiting}
   */
  public Optional<Double> gaugeMean(String name) {
    return sum(gaugeMeans, name);
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
