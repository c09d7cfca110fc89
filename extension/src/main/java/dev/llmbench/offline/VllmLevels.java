package dev.llmbench.offline;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.vllm.VllmResultFiles;
import dev.llmbench.internal.vllm.VllmRun;
import dev.llmbench.internal.vllm.VllmRun.Array;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.StopReason;
import dev.llmbench.server.DeploymentDescription;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code vllm bench serve --save-result} runs, as {@link VllmResultFiles} reads them, as levels. With
 * {@code --save-detailed} the per-request arrays ({@code start_times}, {@code ttfts}, {@code itls},
 * {@code latencies}, {@code output_lens}) make each request again, and the level reads as one measured now;
 * without them it is a summary: counts, duration, throughput and the {@code mean_/median_/std_/pNN_*_ms}
 * statistics.
 */
final class VllmLevels {

  private VllmLevels() {}

  static SweepLevelResult level(VllmRun r, Optional<DeploymentDescription> deployment) {
    int completed = r.completed();
    int failed = r.failed();
    LoadShape load = r.load().orElseGet(() -> new LoadShape.ClosedLoop(completed + failed));
    String label = load.match(c -> "C=" + c.concurrency(), o -> "rate=" + Formats.number(o.rate().perSecond()) + "/s");
    if (r.runNumber().isPresent()) label += ", run=" + r.runNumber().getAsInt();
    String source = "vllm:" + r.file();
    if (r.has(Array.START_TIMES, Array.TTFTS, Array.ITLS, Array.OUTPUT_LENS)) return measured(r, label, load, source, deployment);
    Map<Metric, SummaryDistribution> latencies = new EnumMap<>(Metric.class);
    r.statistics().forEach((metric, s) -> {
      Map<String, Duration> stats = new LinkedHashMap<>();
      s.forEach((stat, ms) -> stats.put(stat, Duration.ofNanos(Math.round(ms * 1e6))));
      latencies.put(metric, CsvTable.summary(stats, completed));
    });
    double duration = r.durationSeconds();
    return new SummaryLevel(label, load, 0, source, completed + failed, completed,
        Duration.ofNanos(Math.round(duration * 1e9)), r.outputThroughput(), r.totalInputTokens(),
        latencies, deployment, List.of("read from vllm bench serve without --save-detailed: no per-request data"));
  }

  /** With {@code --save-detailed}: every request's start, first token, gaps and end. */
  private static SweepLevelResult measured(VllmRun r, String label, LoadShape load, String source,
      Optional<DeploymentDescription> deployment) {
    List<RequestTrace> traces = new ArrayList<>();
    int maxTokens = 0;
    for (VllmRun.Request q : r.requests()) {
      long start = Math.round(q.startSeconds() * 1e9);
      maxTokens = Math.max(maxTokens, q.outputTokens());
      long ttft = Math.round(q.ttftSeconds() * 1e9);
      List<Long> chunks = new ArrayList<>();
      if (!q.failed() && ttft > 0) {
        long at = start + ttft;
        chunks.add(at);
        for (double gap : q.itlSeconds()) {
          at += Math.round(gap * 1e9);
          chunks.add(at);
        }
      }
      // vLLM's latency is the last chunk's arrival; a failure has none.
      long end = q.failed() ? start : start + Math.round(q.latencySeconds() * 1e9);
      traces.add(Recorded.request(start, start, Instant.EPOCH.plusNanos(start), end, chunks, Long.MIN_VALUE,
          q.failed() ? null : new Usage(Math.max(0, q.inputTokens()), q.outputTokens(), null), Map.of(),
          q.failed() ? Recorded.failure(q.error().isEmpty() ? "failed" : q.error()) : null, q.failed() ? null : "length"));
    }
    return Recorded.level(label, load, maxTokens, source, SummaryLevel.UNKNOWN, traces, List.of(50.0, 90.0, 99.0),
        StopReason.REQUEST_COUNT, null, new LevelExtras(Optional.empty(), Optional.empty(), deployment));
  }
}
