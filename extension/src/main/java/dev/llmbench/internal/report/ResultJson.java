package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.DeploymentFacts;
import dev.llmbench.DeploymentDescription;
import dev.llmbench.Distribution;
import dev.llmbench.Finding;
import dev.llmbench.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.RequestFailure;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.analysis.ClientCheck;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A level's result as JSON. Top-level fields carry vLLM's {@code vllm bench serve} names wherever a
 * counterpart exists (same units: seconds for {@code duration} and the per-request arrays, milliseconds
 * for the {@code *_ms} statistics), so existing scripts read it; LLMBench's own fields sit under
 * {@code llmbench}, and per-request records under {@code requests}.
 */
@API(status = INTERNAL)
public final class ResultJson {

  static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(SerializationFeature.INDENT_OUTPUT);

  private ResultJson() {}

  public static String write(MeasuredLevel r) {
    ObjectNode root = MAPPER.createObjectNode();
    List<RequestMetrics> all = r.metrics();
    root.put("duration", r.window().toNanos() / 1e9);
    root.put("completed", r.succeeded());
    root.put("failed", r.failed());
    root.put("total_input_tokens", r.promptTokens());
    root.put("total_output_tokens", r.outputTokens());
    for (Metric m : Metric.values()) {
      // vLLM leaves goodput out without an SLO; fractions are LLMBench's own.
      boolean shown = !m.isLatency() && m.vllmName().isPresent() && (m != Metric.GOODPUT || !r.serviceLevels().isEmpty());
      if (shown) root.put(m.vllmName().get(), m.valueOf(r));
    }
    root.put("max_concurrent_requests", r.peakConcurrency());
    if (r.load() instanceof LoadShape.OpenLoop open) {
      root.put("request_rate", open.rate().perSecond());
      root.put("burstiness", open.burstiness());
    }
    if (r.concurrency() > 0) root.put("max_concurrency", r.concurrency());
    for (Metric m : List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2E_LATENCY)) stats(root, m, r);
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
      errors.add(m.failure().map(RequestFailure::toString).orElse(""));
    }

    ObjectNode own = root.putObject("llmbench");
    own.put("label", r.label());
    own.put("concurrency", r.concurrency());
    own.put("rate", r.load() instanceof LoadShape.OpenLoop open ? open.rate().perSecond() : 0);
    own.put("model", r.endpoint().model());
    own.put("endpoint", r.endpoint().url());
    own.put("time_to_ready_s", r.endpoint().timeToReady().toNanos() / 1e9);
    r.endpoint().serverVersion().ifPresent(v -> own.put("server_version", v));
    own.put("max_tokens", r.maxTokens());
    own.put("prompts", r.prompts());
    own.put("token_source", r.tokenSource().name());
    own.put("total_reasoning_tokens", r.reasoningTokens());
    own.put("stop_reason", r.stopReason().name());
    own.put(Metric.ERROR_RATE.key(), r.errorRate());
    own.set("errors_by_type", MAPPER.valueToTree(r.errorsByType()));
    ObjectNode ci = own.putObject("output_throughput_ci95");
    ci.put("lower", r.outputThroughputCi().lower());
    ci.put("upper", r.outputThroughputCi().upper());
    if (!r.serviceLevels().isEmpty()) {
      own.put("slo", r.serviceLevels().toString());
      own.put(Metric.SLO_ATTAINMENT.key(), r.sloAttainment());
    }
    for (Metric m : List.of(Metric.TTFO, Metric.QUEUE_TIME)) stats(own, m, r);
    ArrayNode warnings = own.putArray("warnings");
    r.warnings().forEach(warnings::add);
    r.serverMetrics().ifPresent(sm -> own.set("server_metrics", MAPPER.valueToTree(sm)));
    r.tokenCrossCheck().ifPresent(c -> own.set("token_cross_check", MAPPER.valueToTree(c)));
    r.decodeRates().ifPresent(d -> {
      own.put("decode_rate_client", d.client());
      own.put("decode_rate_server", d.server());
    });
    own.put("prefix_cache_mode", r.plan().workload().prefixCache().name());
    readings(own, r);

    root.set("requests", MAPPER.valueToTree(RequestRecord.allOf(r)));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What LLMBench read of a level besides its figures: the steady part, the warm-up, the client's own load,
   * the prefix cache, the deployment and the level's findings. Times in milliseconds, shares as fractions.
   */
  static void readings(ObjectNode own, SweepLevelResult r) {
    r.steadyState().ifPresent(st -> {
      ObjectNode n = own.putObject("steady_state");
      n.put("in_flight", st.inFlight());
      n.put("output_throughput", st.outputThroughput().perSecond());
      n.put("steady_ms", ms(st.steady()));
      n.put("ramp_ms", ms(st.ramp()));
      n.put("drain_ms", ms(st.drain()));
      n.put("ramp_and_drain_share", st.rampAndDrainShare());
    });
    r.warmup().ifPresent(w -> {
      ObjectNode n = own.putObject("warmup");
      n.put("requests", w.requests());
      n.put("failed", w.failed());
      n.set("errors_by_type", MAPPER.valueToTree(w.errorsByType()));
      n.put("max_tokens", w.maxTokens());
      n.put("target_in_flight", w.target());
      n.put("peak_in_flight", w.peakInFlight());
      n.put("rounds", w.rounds());
      n.put("time_ms", ms(w.time()));
    });
    r.clientLoad().ifPresent(c -> {
      ObjectNode n = own.putObject("client_load");
      n.put("cores", c.cores());
      n.put("client_cpu_ms", ms(c.clientCpu()));
      n.put("client_cpu_share", c.clientCpuShare());
      n.put("process_cpu_share", c.processCpuShare());
      n.put("machine_cpu_share", c.machineCpuShare());
      n.put("wakeup_lag_p50_ms", ms(c.wakeupLagP50()));
      n.put("wakeup_lag_p90_ms", ms(c.wakeupLagP90()));
      n.put("wakeup_lag_max_ms", ms(c.wakeupLagMax()));
      n.put("events_per_second", c.eventsPerSecond());
      ArrayNode reasons = n.putArray("client_bound_reasons");
      ClientCheck.reasons(r).forEach(reasons::add);
    });
    r.prefixCache().ifPresent(p -> {
      ObjectNode n = own.putObject("prefix_cache");
      n.put("cached_tokens", p.cachedTokens());
      n.put("prompt_tokens", p.promptTokens());
      n.put("hit_rate", p.hitRate());
      n.put("source", p.source());
    });
    r.deploymentDescription().ifPresent(d -> own.set("deployment_facts", deployment(d)));
    own.set("findings", findings(r.findings()));
  }

  /** The deployment's facts, those said only, and the line reports print. */
  static ObjectNode deployment(DeploymentDescription d) {
    ObjectNode n = MAPPER.createObjectNode();
    if (!d.gpus().isEmpty()) n.put("gpus", d.gpus());
    if (d.interconnect() != DeploymentFacts.Interconnect.UNSPECIFIED) n.put("interconnect", d.interconnect().name());
    if (d.tensorParallel() > 0) n.put("tensor_parallel", d.tensorParallel());
    if (d.pipelineParallel() > 0) n.put("pipeline_parallel", d.pipelineParallel());
    if (d.dataParallel() > 0) n.put("data_parallel", d.dataParallel());
    if (d.expertParallel() > 0) n.put("expert_parallel", d.expertParallel());
    if (d.attention() != DeploymentFacts.Attention.UNSPECIFIED) n.put("attention", d.attention().name());
    if (!d.quantisation().isEmpty()) n.put("quantisation", d.quantisation());
    if (!d.engine().isEmpty()) n.put("engine", d.engine());
    if (!d.notes().isEmpty()) n.put("notes", d.notes());
    n.put("description", d.describe());
    return n;
  }

  /** Findings as data: kind, levels, summary, evidence (name, value, unit), causes, ruled out, next steps. */
  public static ArrayNode findings(List<Finding> findings) {
    return MAPPER.valueToTree(findings);
  }

  /** A sweep's own document: its deployment, one summary per level, and every finding. */
  static String sweep(SweepSummary summary) {
    return sweep(summary.title(), summary.deployment(), summary.levels(), summary.findings());
  }

  /** The same document for any sweep's reading, e.g. one read back from files. */
  public static String sweep(SweepResult sweep) {
    return sweep(sweep.title(), sweep.deploymentDescription(), sweep.levels(), sweep.findings());
  }

  private static String sweep(String title, Optional<DeploymentDescription> deployment, List<? extends SweepLevelResult> all,
      List<Finding> findings) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("title", title);
    deployment.ifPresent(d -> root.set("deployment_facts", deployment(d)));
    ArrayNode levels = root.putArray("levels");
    for (SweepLevelResult l : all) {
      ObjectNode n = levels.addObject();
      n.put("label", l.label());
      n.put("concurrency", l.concurrency());
      n.put("rate", l.load() instanceof LoadShape.OpenLoop open ? open.rate().perSecond() : 0);
      n.put("max_tokens", l.maxTokens());
      n.put("requests", l.requestCount());
      n.put("completed", l.succeeded());
      n.put("failed", l.failed());
      n.put("duration", l.window().toNanos() / 1e9);
      n.put(Metric.OUTPUT_THROUGHPUT.key(), l.outputThroughput().perSecond());
      n.put("output_throughput_ci95_lower", l.outputThroughputCi().lower());
      n.put("output_throughput_ci95_upper", l.outputThroughputCi().upper());
      for (Metric m : List.of(Metric.TTFT, Metric.TPOT, Metric.E2E_LATENCY)) {
        m.distributionOf(l).percentile(50).ifPresent(v -> n.put("median_" + m.vllmName().orElse(m.key()) + "_ms", ms(v)));
      }
      readings(n, l);
    }
    root.set("findings", findings(findings));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** vLLM's {@code mean_X_ms}, {@code median_X_ms}, {@code std_X_ms} and {@code pNN_X_ms}, X the metric's key. */
  private static void stats(ObjectNode node, Metric metric, MeasuredLevel r) {
    Distribution d = metric.distributionOf(r);
    String name = metric.vllmName().orElse(metric.key());
    List<Double> percentiles = r.percentiles();
    if (d.isEmpty()) return;
    node.put("mean_" + name + "_ms", ms(d.mean().orElseThrow()));
    node.put("median_" + name + "_ms", ms(d.percentile(50).orElseThrow()));
    node.put("std_" + name + "_ms", ms(d.stdDev().orElseThrow()));
    for (double p : percentiles) node.put(Formats.percentile(p) + "_" + name + "_ms", ms(d.percentile(p).orElseThrow()));
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
