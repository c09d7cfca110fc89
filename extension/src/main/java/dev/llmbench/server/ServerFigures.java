package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BinaryOperator;
import org.apiguardian.api.API;

/**
 * What the server said about its own work during one level, read from its {@link ServerMetrics} under the names each
 * engine uses (vLLM V1, SGLang, llama.cpp): speculative decoding, KV-cache use, preemptions and its queue. Counters
 * are the level's deltas, gauges their mean and peak over the scrapes taken while it ran (every 250 ms, and one
 * after). A figure the server does not report is NaN, or empty. {@code docs/metrics.md} gives every formula.
 *
 * @param family              the engine family, as {@link ServerMetrics#family()}
 * @param speculation         speculative decoding during the level; empty when the server drafted nothing or does not say
 * @param kvCacheUsageMean    KV-cache use, mean over the level, 0..1 ({@code vllm:kv_cache_usage_perc},
 *                            {@code sglang:token_usage}, {@code llamacpp:kv_cache_usage_ratio}; the fullest engine's)
 * @param kvCacheUsagePeak    KV-cache use, highest sample, 0..1
 * @param preemptions         requests the server preempted (vLLM {@code vllm:num_preemptions_total}) or retracted
 *                            (SGLang {@code sglang:num_retracted_requests_total}) during the level, their work to be redone
 * @param requestsRunningMean requests in the server's running batch, mean over the level (summed over its engines)
 * @param requestsRunningPeak the same, highest sample
 * @param requestsWaitingMean requests in the server's queue, mean over the level (summed over its engines)
 * @param requestsWaitingPeak the same, highest sample
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ServerFigures(String family, Optional<Speculation> speculation, double kvCacheUsageMean,
    double kvCacheUsagePeak, OptionalLong preemptions, double requestsRunningMean, double requestsRunningPeak,
    double requestsWaitingMean, double requestsWaitingPeak) {

  /** KV-cache use gauges, 0..1, the first the server reports. */
  static final List<String> KV_CACHE = List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage",
      "llamacpp:kv_cache_usage_ratio");
  /** Preemption counters. */
  static final List<String> PREEMPTIONS = List.of("vllm:num_preemptions_total", "sglang:num_retracted_requests_total");
  /** Running-batch gauges. */
  static final List<String> RUNNING = List.of("vllm:num_requests_running", "sglang:num_running_reqs",
      "llamacpp:requests_processing");
  /** Queue gauges. */
  static final List<String> WAITING = List.of("vllm:num_requests_waiting", "sglang:num_queue_reqs",
      "llamacpp:requests_deferred");

  /**
   * Speculative decoding during one level. vLLM counts it ({@code vllm:spec_decode_num_drafts_total},
   * {@code vllm:spec_decode_num_draft_tokens_total}, {@code vllm:spec_decode_num_accepted_tokens_total}), and
   * llama.cpp under the same names ({@code llamacpp:spec_decode_num_drafts_total}, ...); SGLang
   * gives gauges only ({@code sglang:spec_accept_rate}, {@code sglang:spec_accept_length}), so its counts are
   * unknown (-1) and its rates are the gauges' means over the level.
   *
   * @param drafts             speculation steps (a draft proposed for one request in one step); -1 when not counted
   * @param draftTokens        tokens proposed; -1 when not counted
   * @param acceptedTokens     of them, tokens the target model accepted; -1 when not counted
   * @param acceptanceRate     accepted over proposed tokens, 0..1 (vLLM's "draft acceptance rate")
   * @param meanAcceptedLength tokens each step produced, the bonus token included: 1 + accepted / drafts (vLLM's
   *                           "mean acceptance length", SGLang's "accept length")
   * @param source             the series it comes from
   */
  public record Speculation(long drafts, long draftTokens, long acceptedTokens, double acceptanceRate,
      double meanAcceptedLength, String source) {}

  /**
   * {@return the figures the server's metrics hold; empty when they hold none of them}
   *
   * @param m what the server's {@code /metrics} said about the level
   */
  public static Optional<ServerFigures> of(ServerMetrics m) {
    Optional<Speculation> spec = counted(m, "vllm:").or(() -> counted(m, "llamacpp:")).or(() -> sglangSpeculation(m));
    double[] kv = first(m, KV_CACHE, Math::max);
    OptionalLong preempted = PREEMPTIONS.stream().map(m::counter).flatMap(Optional::stream).findFirst()
        .map(p -> OptionalLong.of(Math.round(p))).orElse(OptionalLong.empty());
    double[] running = first(m, RUNNING, Double::sum);
    double[] waiting = first(m, WAITING, Double::sum);
    if (spec.isEmpty() && Double.isNaN(kv[0]) && preempted.isEmpty() && Double.isNaN(running[0]) && Double.isNaN(waiting[0])) {
      return Optional.empty();
    }
    return Optional.of(new ServerFigures(m.family(), spec, kv[0], kv[1], preempted, running[0], running[1], waiting[0],
        waiting[1]));
  }

  /**
   * 1 + accepted / drafts, as vLLM's SpecDecodingLogging and its PromQL recipe compute it, from vLLM's counters or
   * llama.cpp's of the same names ({@code llamacpp:spec_decode_num_drafts_total}, ...); empty without a draft.
   */
  private static Optional<Speculation> counted(ServerMetrics m, String prefix) {
    String draftsName = prefix + "spec_decode_num_drafts_total";
    String proposedName = prefix + "spec_decode_num_draft_tokens_total";
    String acceptedName = prefix + "spec_decode_num_accepted_tokens_total";
    Optional<Double> drafts = m.counter(draftsName);
    Optional<Double> proposed = m.counter(proposedName);
    Optional<Double> accepted = m.counter(acceptedName);
    if (drafts.isEmpty() || proposed.isEmpty() || accepted.isEmpty() || drafts.get() <= 0 || proposed.get() <= 0) {
      return Optional.empty();
    }
    return Optional.of(new Speculation(Math.round(drafts.get()), Math.round(proposed.get()), Math.round(accepted.get()),
        accepted.get() / proposed.get(), 1 + accepted.get() / drafts.get(), acceptedName + " / " + proposedName + ", 1 + "
            + acceptedName + " / " + draftsName));
  }

  /** SGLang's gauges, mean over the level; a length of 0 is a server that does not speculate. */
  private static Optional<Speculation> sglangSpeculation(ServerMetrics m) {
    double length = mean(m, "sglang:spec_accept_length", Math::max);
    if (Double.isNaN(length) || length <= 0) return Optional.empty();
    double rate = mean(m, "sglang:spec_accept_rate", Math::max);
    return Optional.of(new Speculation(-1, -1, -1, rate, length, "sglang:spec_accept_rate, sglang:spec_accept_length"
        + " (means over the level)"));
  }

  /** Mean and peak of the first gauge of {@code names} the server reports, its label sets joined by {@code join}. */
  private static double[] first(ServerMetrics m, List<String> names, BinaryOperator<Double> join) {
    for (String name : names) {
      double mean = mean(m, name, join);
      double peak = join(m.gaugePeaks(), name, join);
      if (!Double.isNaN(mean) || !Double.isNaN(peak)) return new double[] {Double.isNaN(mean) ? peak : mean, peak};
    }
    return new double[] {Double.NaN, Double.NaN};
  }

  private static double mean(ServerMetrics m, String name, BinaryOperator<Double> join) {
    return join(m.gaugeMeans(), name, join);
  }

  private static double join(Map<String, Double> series, String name, BinaryOperator<Double> join) {
    return series.entrySet().stream().filter(e -> baseName(e.getKey()).equals(name)).map(Map.Entry::getValue)
        .reduce(join).orElse(Double.NaN);
  }

  private static String baseName(String series) {
    int brace = series.indexOf('{');
    return brace < 0 ? series : series.substring(0, brace);
  }
}
