package dev.llmbench.internal.analysis;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import dev.llmbench.server.ServerMetrics;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiFunction;

/** The per-level figures findings read, with the server's own gauges under each engine's names. */
final class Figures {

  /**
   * The most {@code max_tokens} the level's requests asked, as their bodies carried it; the plan's where the requests
   * were not recorded (a level read back from files).
   */
  static int maxTokensAsked(dev.llmbench.SweepLevelResult l) {
    return l instanceof dev.llmbench.internal.metrics.LevelStatistics s
        ? dev.llmbench.internal.metrics.MaxTokensAsked.ofMetrics(s.metrics()).map(a -> a.max()).orElse(l.maxTokens())
        : l.maxTokens();
  }

  /** Requests waiting in the server's queue (vLLM, SGLang, llama.cpp, TGI). */
  static final String[] WAITING = {"vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred",
      "tgi_queue_size"};
  /** Requests the server was running. */
  static final String[] RUNNING = {"vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing",
      "tgi_batch_current_size"};
  /** KV-cache use, 0..1. */
  static final String[] KV_USAGE = {"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage"};
  static final String[] PREEMPTIONS = {"vllm:num_preemptions_total", "sglang:num_retracted_requests_total"};

  private Figures() {}

  static double throughput(SweepLevelResult l) {
    return l.outputThroughput().perSecond();
  }

  static boolean closed(SweepLevelResult l) {
    return l.load() instanceof LoadShape.ClosedLoop;
  }

  static Optional<Duration> median(SweepLevelResult l, Metric latency) {
    return latency.distributionOf(l).percentile(50);
  }

  static double medianMs(SweepLevelResult l, Metric latency) {
    return median(l, latency).map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
  }

  /**
   * The statistic two levels' latencies are compared by ({@link #compare}): {@code median} when both give one,
   * {@code mean} when two summaries do not; empty when they share neither.
   */
  static Optional<String> commonStat(SweepLevelResult lo, SweepLevelResult hi, Metric latency) {
    if (median(lo, latency).isPresent() && median(hi, latency).isPresent()) return Optional.of("median");
    if (Derived.summary(lo) && Derived.summary(hi) && latency.distributionOf(lo).mean().isPresent()
        && latency.distributionOf(hi).mean().isPresent()) {
      return Optional.of("mean");
    }
    return Optional.empty();
  }

  /** The latency's median or mean in milliseconds; NaN when the level has none. */
  static double statMs(SweepLevelResult l, Metric latency, String stat) {
    Distribution d = latency.distributionOf(l);
    return (stat.equals("mean") ? d.mean() : d.percentile(50)).map(x -> x.toNanos() / 1e6).orElse(Double.NaN);
  }

  /** Whether the latency's median at {@code hi} is above that at {@code lo} by more than the noise of both. */
  static boolean rose(SweepLevelResult lo, SweepLevelResult hi, Metric latency) {
    return compare(lo, hi, latency) > 0;
  }

  static boolean fell(SweepLevelResult lo, SweepLevelResult hi, Metric latency) {
    return compare(lo, hi, latency) < 0;
  }

  /**
   * 1 when the median rose beyond noise, -1 when it fell, 0 otherwise or when either has none; a summary
   * without a median is read by its mean.
   */
  static int compare(SweepLevelResult lo, SweepLevelResult hi, Metric latency) {
    Optional<Duration> a = median(lo, latency);
    Optional<Duration> b = median(hi, latency);
    if (a.isEmpty() || b.isEmpty()) {
      // A table may give no median: two summaries are then compared by their means.
      if (!Derived.summary(lo) || !Derived.summary(hi)) return 0;
      a = latency.distributionOf(lo).mean();
      b = latency.distributionOf(hi).mean();
    }
    if (a.isEmpty() || b.isEmpty()) return 0;
    double x = a.orElseThrow().toNanos();
    double y = b.orElseThrow().toNanos();
    if (Math.abs(y - x) <= Math.hypot(Noise.medianNanos(lo, latency), Noise.medianNanos(hi, latency))) return 0;
    return y > x ? 1 : -1;
  }

  static Optional<Double> gauge(SweepLevelResult l, String... names) {
    return firstOf(l, ServerMetrics::gaugePeak, names);
  }

  static Optional<Double> counter(SweepLevelResult l, String... names) {
    return firstOf(l, ServerMetrics::counter, names);
  }

  /** The value under the first of the engines' names the server reported. */
  private static Optional<Double> firstOf(SweepLevelResult l, BiFunction<ServerMetrics, String, Optional<Double>> read,
      String[] names) {
    Optional<ServerMetrics> m = l.serverMetrics();
    if (m.isEmpty()) return Optional.empty();
    for (String n : names) {
      Optional<Double> v = read.apply(m.get(), n);
      if (v.isPresent()) return v;
    }
    return Optional.empty();
  }

  /** Whole rounds of C a closed-loop level ran. */
  static long rounds(SweepLevelResult l) {
    return l.concurrency() == 0 ? 0 : l.requestCount() / l.concurrency();
  }

  static String ms(double v) {
    return String.format(java.util.Locale.ROOT, "%.1f ms", v);
  }
}
