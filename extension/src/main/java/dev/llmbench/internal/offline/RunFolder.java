package dev.llmbench.internal.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.ApiStyle;
import dev.llmbench.ClientLoad;
import dev.llmbench.DeploymentFacts;
import dev.llmbench.DeploymentDescription;
import dev.llmbench.EndpointInfo;
import dev.llmbench.LoadShape;
import dev.llmbench.Rate;
import dev.llmbench.ServerMetrics;
import dev.llmbench.StopReason;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.TokenSource;
import dev.llmbench.Usage;
import dev.llmbench.WarmupReport;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A level as an earlier LLMBench run wrote it ({@code C=8.json}): its per-request records make every
 * request again, so the level reads exactly as it did, with what the run knew of its warm-up, the client's
 * load, the server's counters and the deployment.
 */
final class RunFolder {

  private static final Pattern PERCENTILE = Pattern.compile("^p(\\d+(?:\\.\\d+)?)_ttft_ms$");
  private static final long MS = 1_000_000;

  private RunFolder() {}

  /** Whether {@code node} is a level LLMBench wrote: vLLM's names at the top, its own under {@code llmbench}. */
  static boolean isLevel(JsonNode node) {
    return node.isObject() && node.has("llmbench") && node.path("requests").isArray();
  }

  static SweepLevelResult level(JsonNode root, Optional<DeploymentDescription> given) {
    JsonNode own = root.path("llmbench");
    int concurrency = own.path("concurrency").asInt();
    double rate = own.path("rate").asDouble(0);
    LoadShape load = rate > 0
        ? new LoadShape.OpenLoop(Rate.requestsPerSecond(rate), root.path("burstiness").asDouble(1),
            concurrency > 0 ? OptionalInt.of(concurrency) : OptionalInt.empty())
        : new LoadShape.ClosedLoop(Math.max(1, concurrency));
    List<RequestTrace> traces = new ArrayList<>();
    for (JsonNode r : root.path("requests")) traces.add(request(r));
    List<Double> percentiles = new ArrayList<>();
    root.fieldNames().forEachRemaining(name -> {
      Matcher m = PERCENTILE.matcher(name);
      if (m.matches()) percentiles.add(Double.parseDouble(m.group(1)));
    });
    if (percentiles.isEmpty()) percentiles.add(50.0);
    EndpointInfo endpoint = new EndpointInfo(own.path("endpoint").asText(""), own.path("model").asText(""), ApiStyle.CHAT,
        Optional.empty(), own.has("server_version") ? Optional.of(own.path("server_version").asText()) : Optional.empty(),
        Duration.ofNanos(Math.round(own.path("time_to_ready_s").asDouble() * 1e9)), List.of());
    Optional<DeploymentDescription> deployment = given.isPresent() ? given : deployment(own.path("deployment_facts"));
    return Recorded.level(own.path("label").asText("C=" + concurrency), load, own.path("max_tokens").asInt(1),
        own.path("prompts").asText("recorded"), endpoint, traces, percentiles, stopReason(own.path("stop_reason").asText()),
        server(own.path("server_metrics")), new LevelExtras(warmup(own.path("warmup")), clientLoad(own.path("client_load")),
            deployment));
  }

  /** One request record: offsets in milliseconds from the level's first send, chunk arrivals from its own. */
  private static RequestTrace request(JsonNode r) {
    long start = Math.round(r.path("start_offset_ms").asDouble() * MS);
    long scheduled = start - Math.round(r.path("queue_ms").asDouble() * MS);
    long end = start + Math.round(r.path("e2e_ms").asDouble() * MS);
    List<Long> chunks = new ArrayList<>();
    r.path("chunk_arrivals_ms").forEach(a -> chunks.add(start + Math.round(a.asDouble() * MS)));
    // No ttfo_ms at all: a record from before TTFO was written, all content. A null one: no content token came.
    long firstContent = r.path("ttfo_ms").isNumber() ? start + Math.round(r.path("ttfo_ms").asDouble() * MS)
        : r.has("ttfo_ms") ? Long.MAX_VALUE : Long.MIN_VALUE;
    if (chunks.isEmpty() && r.path("ttft_ms").isNumber()) {
      chunks.addAll(spread(start + Math.round(r.path("ttft_ms").asDouble() * MS), firstContent, end,
          r.path("token_chunks").asInt(1), r.path("reasoning_tokens").asInt(0)));
    }
    boolean usage = TokenSource.SERVER_USAGE.name().equals(r.path("token_source").asText());
    String error = r.path("error").isTextual() ? r.path("error").asText() : null;
    return Recorded.request(scheduled, start, Instant.ofEpochMilli(r.path("start_epoch_ms").asLong()), end, chunks,
        firstContent, usage && error == null ? new Usage(r.path("prompt_tokens").asInt(), r.path("output_tokens").asInt(),
            r.path("reasoning_tokens").asInt()) : null, Map.of(), error == null ? null : Recorded.failure(error),
        r.path("finish_reason").isTextual() ? r.path("finish_reason").asText() : null);
  }

  /**
   * Chunk arrivals for a record written without {@code llmbench.report.chunk-timings}: the first at its TTFT,
   * the first content one at its TTFO, the last at its end; {@code reasoning} chunks (at least one, at most
   * all but one) evenly before the TTFO, the content ones evenly after. TTFT, TTFO, TPOT and E2E read back
   * exactly; the gaps within the reasoning and within the content read back as their means.
   *
   * @param firstContent the TTFO's instant; {@code Long.MIN_VALUE} when every chunk is content,
   *                     {@code Long.MAX_VALUE} when none is
   */
  static List<Long> spread(long first, long firstContent, long end, int count, int reasoning) {
    int n = Math.max(1, count);
    List<Long> at = new ArrayList<>(n);
    if (n == 1 || firstContent <= first || firstContent > end) {
      even(at, first, end, n);
      return at;
    }
    long hint = reasoning > 0 ? reasoning : Math.round((double) (firstContent - first) / (end - first) * (n - 1));
    int k = (int) Math.max(1, Math.min(n - 1, hint));
    for (int i = 0; i < k; i++) at.add(first + Math.round((double) (firstContent - first) * i / k));
    even(at, firstContent, end, n - k);
    return at;
  }

  /** {@code n} instants from {@code from} to {@code to}, evenly; one is at {@code from}. */
  private static void even(List<Long> at, long from, long to, int n) {
    for (int i = 0; i < n; i++) at.add(n == 1 ? from : from + Math.round((double) (to - from) * i / (n - 1)));
  }

  private static StopReason stopReason(String name) {
    try {
      return StopReason.valueOf(name);
    } catch (IllegalArgumentException e) {
      return StopReason.REQUEST_COUNT;
    }
  }

  private static ServerMetrics server(JsonNode n) {
    if (!n.isObject()) return null;
    Map<String, Double> deltas = new HashMap<>();
    Map<String, Double> peaks = new HashMap<>();
    n.path("deltas").fields().forEachRemaining(e -> deltas.put(e.getKey(), e.getValue().asDouble()));
    n.path("gauge_peaks").fields().forEachRemaining(e -> peaks.put(e.getKey(), e.getValue().asDouble()));
    return new ServerMetrics(n.path("family").asText("unknown"), deltas, peaks, n.path("samples").asInt());
  }

  private static Optional<WarmupReport> warmup(JsonNode n) {
    if (!n.isObject()) return Optional.empty();
    Map<String, Long> errors = new HashMap<>();
    n.path("errors_by_type").fields().forEachRemaining(e -> errors.put(e.getKey(), e.getValue().asLong()));
    return Optional.of(new WarmupReport(n.path("requests").asInt(), n.path("failed").asInt(), errors,
        n.path("max_tokens").asInt(), n.path("target_in_flight").asInt(), n.path("peak_in_flight").asInt(),
        n.path("rounds").asInt(), ms(n.path("time_ms"))));
  }

  private static Optional<ClientLoad> clientLoad(JsonNode n) {
    if (!n.isObject()) return Optional.empty();
    return Optional.of(new ClientLoad(n.path("cores").asInt(), ms(n.path("client_cpu_ms")), n.path("client_cpu_share").asDouble(),
        n.path("process_cpu_share").asDouble(Double.NaN), n.path("machine_cpu_share").asDouble(Double.NaN),
        ms(n.path("wakeup_lag_p50_ms")), ms(n.path("wakeup_lag_p90_ms")), ms(n.path("wakeup_lag_max_ms")),
        n.path("events_per_second").asDouble()));
  }

  static Optional<DeploymentDescription> deployment(JsonNode n) {
    if (!n.isObject()) return Optional.empty();
    return Optional.of(new DeploymentDescription(n.path("gpus").asText(""),
        DeploymentFacts.Interconnect.valueOf(n.path("interconnect").asText("UNSPECIFIED")), n.path("tensor_parallel").asInt(),
        n.path("pipeline_parallel").asInt(), n.path("data_parallel").asInt(), n.path("expert_parallel").asInt(),
        DeploymentFacts.Attention.valueOf(n.path("attention").asText("UNSPECIFIED")), n.path("quantisation").asText(""),
        n.path("engine").asText(""), n.path("notes").asText("")));
  }

  private static Duration ms(JsonNode n) {
    return Duration.ofNanos(Math.round(n.asDouble() * MS));
  }
}
