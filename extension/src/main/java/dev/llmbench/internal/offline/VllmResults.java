package dev.llmbench.internal.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.DeploymentDescription;
import dev.llmbench.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.StopReason;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Usage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.vllm.VllmResultFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code vllm bench serve --save-result} runs ({@link VllmResultFiles}) as levels. With
 * {@code --save-detailed} the per-request arrays ({@code start_times}, {@code ttfts}, {@code itls},
 * {@code latencies}, {@code output_lens}) make each request again, and the level reads as one measured now;
 * without them it is a summary: counts, duration, throughput and the {@code mean_/median_/std_/pNN_*_ms}
 * statistics.
 */
final class VllmResults {

  private static final Pattern STAT = Pattern.compile("^(mean|median|std|p(\\d+(?:\\.\\d+)?))_(ttft|tpot|itl|e2el)_ms$");
  private static final Map<String, Metric> METRICS = Map.of("ttft", Metric.TTFT, "tpot", Metric.TPOT, "itl", Metric.ITL,
      "e2el", Metric.E2E_LATENCY);

  private VllmResults() {}

  static SweepLevelResult level(JsonNode r, Path file, Optional<DeploymentDescription> deployment) {
    int completed = r.path("completed").asInt();
    int failed = r.path("failed").asInt(0);
    LoadShape load = VllmResultFiles.load(r, file).orElseGet(() -> new LoadShape.ClosedLoop(completed + failed));
    String label = load.match(c -> "C=" + c.concurrency(), o -> "rate=" + Formats.number(o.rate().perSecond()) + "/s");
    if (r.has("run_number")) label += ", run=" + r.path("run_number").asInt();
    String source = "vllm:" + file.getFileName();
    if (detailed(r)) return measured(r, label, load, source, deployment);
    Map<Metric, Map<String, Duration>> stats = new EnumMap<>(Metric.class);
    r.fieldNames().forEachRemaining(name -> {
      Matcher m = STAT.matcher(name);
      if (!m.matches() || !r.path(name).isNumber()) return;
      String stat = m.group(2) != null ? "p" + m.group(2) : m.group(1);
      stats.computeIfAbsent(METRICS.get(m.group(3)), k -> new LinkedHashMap<>())
          .put(stat, Duration.ofNanos(Math.round(r.path(name).asDouble() * 1e6)));
    });
    Map<Metric, SummaryDistribution> latencies = new EnumMap<>(Metric.class);
    stats.forEach((metric, s) -> latencies.put(metric, CsvTable.summary(s, completed)));
    double duration = r.path("duration").asDouble();
    double perSecond = r.path("output_throughput").isNumber() ? r.path("output_throughput").asDouble()
        : r.path("total_output_tokens").asDouble() / duration;
    return new TableLevel(label, load, 0, source, completed + failed, completed,
        Duration.ofNanos(Math.round(duration * 1e9)), perSecond, r.path("total_input_tokens").asLong(),
        latencies, deployment, List.of("read from vllm bench serve without --save-detailed: no per-request data"));
  }

  /** With {@code --save-detailed}: every request's start, first token, gaps and end. */
  private static boolean detailed(JsonNode r) {
    int n = r.path("latencies").size();
    return n > 0 && r.path("start_times").size() == n && r.path("ttfts").size() == n && r.path("itls").size() == n
        && r.path("output_lens").size() == n;
  }

  private static SweepLevelResult measured(JsonNode r, String label, LoadShape load, String source,
      Optional<DeploymentDescription> deployment) {
    List<RequestTrace> traces = new ArrayList<>();
    JsonNode errors = r.path("errors");
    JsonNode inputs = r.path("input_lens");
    int maxTokens = 0;
    for (int i = 0; i < r.path("latencies").size(); i++) {
      long start = Math.round(r.path("start_times").get(i).asDouble() * 1e9);
      String error = errors.path(i).asText("");
      int output = r.path("output_lens").get(i).asInt();
      maxTokens = Math.max(maxTokens, output);
      long ttft = Math.round(r.path("ttfts").get(i).asDouble() * 1e9);
      List<Long> chunks = new ArrayList<>();
      if (error.isEmpty() && ttft > 0) {
        long at = start + ttft;
        chunks.add(at);
        for (JsonNode gap : r.path("itls").get(i)) {
          at += Math.round(gap.asDouble() * 1e9);
          chunks.add(at);
        }
      }
      // vLLM's latency is the last chunk's arrival; a failure has none.
      long end = error.isEmpty() ? start + Math.round(r.path("latencies").get(i).asDouble() * 1e9) : start;
      traces.add(Recorded.request(start, start, Instant.EPOCH.plusNanos(start), end, chunks, Long.MIN_VALUE,
          error.isEmpty() ? new Usage(inputs.path(i).asInt(0), output, null) : null, Map.of(),
          error.isEmpty() ? null : Recorded.failure(error), error.isEmpty() ? "length" : null));
    }
    return Recorded.level(label, load, maxTokens, source, TableLevel.UNKNOWN, traces, List.of(50.0, 90.0, 99.0),
        StopReason.REQUEST_COUNT, null, new LevelExtras(Optional.empty(), Optional.empty(), deployment));
  }
}
