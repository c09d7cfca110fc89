package dev.llmbench.internal.report;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.metrics.Distribution;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A level's result as JSON. Top-level fields carry vLLM's {@code vllm bench serve} names wherever a
 * counterpart exists (same units: seconds for {@code duration} and the per-request arrays, milliseconds
 * for the {@code *_ms} statistics), so existing scripts read it; LLMBench's own fields sit under
 * {@code llmbench}, and per-request records under {@code requests}.
 */
public final class ResultJson {

  static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(SerializationFeature.INDENT_OUTPUT);

  private ResultJson() {}

  public static String write(SweepLevelResult r) {
    ObjectNode root = MAPPER.createObjectNode();
    List<RequestMetrics> all = r.requests();
    root.put("duration", r.window().toNanos() / 1e9);
    root.put("completed", r.succeeded());
    root.put("failed", r.failed());
    root.put("total_input_tokens", r.promptTokens());
    root.put("total_output_tokens", r.outputTokens());
    root.put("request_throughput", r.requestThroughput().perSecond());
    if (!r.serviceLevels().isEmpty()) root.put("request_goodput", r.goodput().perSecond());
    root.put("output_throughput", r.outputThroughput().perSecond());
    root.put("total_token_throughput", r.totalTokenThroughput().perSecond());
    root.put("max_output_tokens_per_s", r.peakOutputThroughput().perSecond());
    root.put("max_concurrent_requests", r.peakConcurrency());
    if (r.plan().isOpenLoop()) root.put("request_rate", r.plan().rate());
    if (r.plan().isOpenLoop()) root.put("burstiness", r.plan().burstiness());
    if (r.concurrency() > 0) root.put("max_concurrency", r.concurrency());
    stats(root, "ttft", r.ttft(), r.percentiles());
    stats(root, "tpot", r.tpot(), r.percentiles());
    stats(root, "itl", r.itl(), r.percentiles());
    stats(root, "e2el", r.e2eLatency(), r.percentiles());
    ArrayNode inputLens = root.putArray("input_lens");
    ArrayNode outputLens = root.putArray("output_lens");
    ArrayNode ttfts = root.putArray("ttfts");
    ArrayNode itls = root.putArray("itls");
    ArrayNode latencies = root.putArray("latencies");
    ArrayNode errors = root.putArray("errors");
    for (RequestMetrics m : all) {
      inputLens.add(m.promptTokens());
      outputLens.add(m.outputTokens());
      ttfts.add(m.ttft().map(d -> d.toNanos() / 1e9).orElse(0.0));
      ArrayNode gaps = itls.addArray();
      m.itls().forEach(d -> gaps.add(d.toNanos() / 1e9));
      latencies.add(m.succeeded() ? m.e2eLatency().toNanos() / 1e9 : 0.0);
      errors.add(m.trace().failure().map(e -> e.key() + ": " + e.message()).orElse(""));
    }

    ObjectNode own = root.putObject("llmbench");
    own.put("label", r.label());
    own.put("concurrency", r.concurrency());
    own.put("rate", r.plan().rate());
    own.put("model", r.endpoint().model());
    own.put("endpoint", r.endpoint().url());
    own.put("time_to_ready_s", r.endpoint().timeToReady().toNanos() / 1e9);
    r.endpoint().serverVersion().ifPresent(v -> own.put("server_version", v));
    own.put("max_tokens", r.plan().maxTokens());
    own.put("prompts", r.plan().workload().name());
    own.put("token_source", r.tokenSource().name());
    own.put("total_reasoning_tokens", r.reasoningTokens());
    own.put("stop_reason", r.stopReason().name());
    own.put("error_rate", r.errorRate());
    own.set("errors_by_type", MAPPER.valueToTree(r.errorsByType()));
    ObjectNode ci = own.putObject("output_throughput_ci95");
    ci.put("lower", r.outputThroughputCi().lower());
    ci.put("upper", r.outputThroughputCi().upper());
    if (!r.serviceLevels().isEmpty()) {
      own.put("slo", r.serviceLevels().toString());
      own.put("slo_attainment", r.sloAttainment());
    }
    stats(own, "ttfo", r.ttfo(), r.percentiles());
    stats(own, "queue", r.queueTime(), r.percentiles());
    ArrayNode warnings = own.putArray("warnings");
    r.warnings().forEach(warnings::add);
    r.serverMetrics().ifPresent(sm -> own.set("server_metrics", MAPPER.valueToTree(sm)));
    r.tokenCrossCheck().ifPresent(c -> own.set("token_cross_check", MAPPER.valueToTree(c)));
    r.decodeRates().ifPresent(d -> {
      own.put("decode_rate_client", d.client());
      own.put("decode_rate_server", d.server());
    });

    root.set("requests", MAPPER.valueToTree(RequestRecord.allOf(r)));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** vLLM's {@code mean_X_ms}, {@code median_X_ms}, {@code std_X_ms} and {@code pNN_X_ms}. */
  private static void stats(ObjectNode node, String name, Distribution d, List<Double> percentiles) {
    if (d.isEmpty()) return;
    node.put("mean_" + name + "_ms", ms(d.mean().orElseThrow()));
    node.put("median_" + name + "_ms", ms(d.percentile(50).orElseThrow()));
    node.put("std_" + name + "_ms", ms(d.stdDev().orElseThrow()));
    for (double p : percentiles) node.put(Percentiles.label(p) + "_" + name + "_ms", ms(d.percentile(p).orElseThrow()));
  }

  private static double ms(Duration d) {
    return d.toNanos() / 1e6;
  }

  public static JsonNode read(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The per-request records of a written result. */
  public static List<RequestRecord> readRequests(String json) {
    return MAPPER.convertValue(read(json).path("requests"), new TypeReference<List<RequestRecord>>() {});
  }

  public static Map<String, Object> readSummary(String json) {
    return MAPPER.convertValue(read(json), new TypeReference<Map<String, Object>>() {});
  }
}
