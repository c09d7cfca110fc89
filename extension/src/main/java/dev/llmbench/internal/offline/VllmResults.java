package dev.llmbench.internal.offline;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.DeploymentDescription;
import dev.llmbench.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.Rate;
import dev.llmbench.StopReason;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Usage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import dev.llmbench.internal.format.Formats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code vllm bench serve --save-result} files: one JSON object per run (a file, a line of an
 * {@code --append-result} file, or an element of {@code vllm bench sweep}'s {@code summary.json}). With
 * {@code --save-detailed} the per-request arrays ({@code start_times}, {@code ttfts}, {@code itls},
 * {@code latencies}, {@code output_lens}) make each request again, and the level reads as one measured now;
 * without them it is a summary: counts, duration, throughput and the {@code mean_/median_/std_/pNN_*_ms}
 * statistics.
 */
final class VllmResults {

  /** Fails on a second value, so that JSON Lines are not read as their first line alone. */
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Pattern CONCURRENCY_IN_NAME = Pattern.compile("-concurrency(\\d+)-");
  private static final Pattern STAT = Pattern.compile("^(mean|median|std|p(\\d+(?:\\.\\d+)?))_(ttft|tpot|itl|e2el)_ms$");
  private static final Map<String, Metric> METRICS = Map.of("ttft", Metric.TTFT, "tpot", Metric.TPOT, "itl", Metric.ITL,
      "e2el", Metric.E2E_LATENCY);

  private VllmResults() {}

  /** Whether {@code node} looks like a {@code vllm bench serve} result. */
  static boolean isResult(JsonNode node) {
    return node.isObject() && node.has("duration") && node.has("completed") && !node.has("llmbench");
  }

  /** Every result object in {@code file}: one object, an array of them, or one per line. */
  static List<JsonNode> objects(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
    List<JsonNode> out = new ArrayList<>();
    try {
      JsonNode whole = JSON.readTree(text);
      if (whole.isArray()) whole.forEach(out::add);
      else out.add(whole);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      for (String line : text.split("\\R")) {
        if (line.isBlank()) continue;
        try {
          out.add(JSON.readTree(line));
        } catch (com.fasterxml.jackson.core.JsonProcessingException lineError) {
          throw new IllegalArgumentException(file + " is neither JSON nor JSON Lines: " + lineError.getOriginalMessage(), e);
        }
      }
    }
    return out;
  }

  static SweepLevelResult level(JsonNode r, Path file, Optional<DeploymentDescription> deployment) {
    int completed = r.path("completed").asInt();
    int failed = r.path("failed").asInt(0);
    Integer concurrency = r.path("max_concurrency").isNumber() ? r.path("max_concurrency").asInt() : fromName(file);
    double rate = r.path("request_rate").isNumber() ? r.path("request_rate").asDouble() : Double.POSITIVE_INFINITY;
    LoadShape load;
    String label;
    if (Double.isInfinite(rate)) {
      int c = concurrency != null ? concurrency : completed + failed;
      load = new LoadShape.ClosedLoop(c);
      label = "C=" + c;
    } else {
      load = new LoadShape.OpenLoop(Rate.requestsPerSecond(rate), r.path("burstiness").asDouble(1.0),
          concurrency == null ? OptionalInt.empty() : OptionalInt.of(concurrency));
      label = "rate=" + Formats.number(rate) + "/s";
    }
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
        latencies, deployment, List.of("read from vllm bench serve without --save-detailed: no per-request data, so its "
            + "noise is not known (±5% assumed)"));
  }

  private static Integer fromName(Path file) {
    Matcher m = CONCURRENCY_IN_NAME.matcher(file.getFileName().toString());
    return m.find() ? Integer.parseInt(m.group(1)) : null;
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
