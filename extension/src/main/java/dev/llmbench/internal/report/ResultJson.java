package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.BaselineComparison;
import dev.llmbench.Capacity;
import dev.llmbench.Delta;
import dev.llmbench.DeploymentDescription;
import dev.llmbench.DeploymentFacts;
import dev.llmbench.Distribution;
import dev.llmbench.Finding;
import dev.llmbench.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.RequestFailure;
import dev.llmbench.ServerStartup;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.analysis.ClientCheck;
import dev.llmbench.internal.baseline.Baselines;
import dev.llmbench.internal.compare.SloCheck;
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
 * {@code llmbench} (with latency histograms that add up across shards, {@link LatencyHistograms}), and
 * per-request records under {@code requests}.
 */
@API(status = INTERNAL)
public final class ResultJson {

  static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(SerializationFeature.INDENT_OUTPUT);

  private ResultJson() {}

  /** Per-request summaries, no chunk timings. */
  public static String write(MeasuredLevel r) {
    return write(r, ReportOptions.DEFAULT);
  }

  /**
   * The level's JSON. Per-chunk data (vLLM's {@code itls}, the records' {@code chunk_arrivals_ms}) only
   * when {@code options} ask for it, as {@code vllm bench serve} keeps its per-request arrays for
   * {@code --save-detailed}; every statistic over them is there either way.
   */
  public static String write(MeasuredLevel r, ReportOptions options) {
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
    ArrayNode itls = options.chunkTimings() ? root.putArray("itls") : null;
    ArrayNode latencies = root.putArray("latencies");
    ArrayNode errors = root.putArray("errors");
    for (RequestMetrics m : all) {
      inputLens.add(m.promptTokens());
      outputLens.add(m.outputTokens());
      ttfts.add(m.ttft().map(d -> d.toNanos() / 1e9).orElse(0.0));
      if (itls != null) {
        ArrayNode gaps = itls.addArray();
        if (m.succeeded()) m.trace().forEachItlNanos(gap -> gaps.add(gap / 1e9));
      }
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
    ServerStartup startup = r.endpoint().startup();
    startup.readySinceLaunch().ifPresent(d -> own.put("ready_since_launch_s", d.toNanos() / 1e9));
    if (startup.engine().isPresent()) {
      ObjectNode s = own.putObject("startup").put("engine", startup.engine().get()).put("summary", startup.summary());
      ArrayNode phases = s.putArray("phases");
      startup.phases().forEach(p -> phases.addObject().put("phase", p.name())
          .put("seconds", p.time().map(d -> d.toNanos() / 1e9).orElse(null)));
      ArrayNode printed = s.putArray("engine_durations");
      startup.engineDurations().forEach(d -> printed.addObject().put("what", d.what()).put("seconds", d.took().toNanos() / 1e9));
    }
    r.endpoint().serverVersion().ifPresent(v -> own.put("server_version", v));
    r.endpoint().deployment().ifPresent(d -> own.put("deployment", d));
    r.endpoint().roundTrip().ifPresent(rtt -> {
      ObjectNode net = own.putObject("network_round_trip");
      net.put("request", rtt.request());
      net.put("median_ms", ms(rtt.median()));
      net.put("min_ms", ms(rtt.min()));
      net.put("max_ms", ms(rtt.max()));
      ArrayNode samples = net.putArray("samples_ms");
      rtt.samples().forEach(d -> samples.add(ms(d)));
    });
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
    LevelWorkload.of(r).ifPresent(w -> own.set("workload", w.json()));
    readings(own, r);

    Baselines.of(r).ifPresent(c -> own.set("baseline", baseline(c)));

    List<RequestRecord> records = RequestRecord.allOf(r, options);
    own.set("histograms", LatencyHistograms.json(records, r.metrics()));
    own.put("chunk_timings", options.chunkTimings());
    own.put("resends", r.metrics().stream().mapToInt(m -> m.trace().resends()).sum());
    root.set("requests", MAPPER.valueToTree(records));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The level's deltas against its baseline: each figure's values, change, 95% interval of the change and verdict. */
  private static ObjectNode baseline(BaselineComparison c) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("source", c.source());
    node.put("max_regression", c.maxRegression());
    ArrayNode deltas = node.putArray("deltas");
    for (Delta d : c.deltas()) {
      ObjectNode n = deltas.addObject();
      n.put("figure", d.figure());
      n.put("metric", d.metric().key());
      d.percentile().ifPresent(p -> n.put("percentile", p));
      n.put("unit", d.metric().unit());
      n.put("baseline", d.reference());
      n.put("current", d.current());
      n.put("change", d.change().estimate());
      n.put("change_ci95_lower", d.change().lower());
      n.put("change_ci95_upper", d.change().upper());
      n.put("verdict", d.verdict().name());
    }
    return node;
  }

  /** What capacity searches found: the answer, the levels either side and every probe, with whether it met the SLO. */
  public static String capacity(List<Capacity> found) {
    ArrayNode all = MAPPER.createArrayNode();
    for (Capacity c : found) {
      ObjectNode n = all.addObject();
      c.deployment().ifPresent(d -> n.put("deployment", d));
      n.put("outcome", c.outcome().name());
      n.put("statement", c.statement());
      n.put("slo", c.slo().toString());
      n.put("searched", c.closedLoop() ? "concurrency" : "request_rate");
      n.put("low", c.low());
      n.put("high", c.high());
      n.put("step", c.step());
      n.put("capacity", c.load());
      c.atCapacity().ifPresent(l -> n.put("at_capacity", l.label()));
      c.beyond().ifPresent(l -> n.put("beyond", l.label()));
      ArrayNode probes = n.putArray("probes");
      for (SweepLevelResult l : c.probes()) {
        ObjectNode p = probes.addObject();
        p.put("label", l.label());
        p.put("meets_slo", SloCheck.meets(l, c.slo()));
        ArrayNode violations = p.putArray("violations");
        SloCheck.violations(l, c.slo()).forEach(violations::add);
        p.put(Metric.SLO_ATTAINMENT.key(), l.sloAttainment());
        p.put(Metric.GOODPUT.vllmName().orElseThrow(), l.goodput().perSecond());
        p.put(Metric.OUTPUT_THROUGHPUT.key(), l.outputThroughput().perSecond());
      }
    }
    try {
      return MAPPER.writeValueAsString(all);
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
    r.scheduleLag().filter(d -> !d.isEmpty()).ifPresent(d -> {
      // Send minus due, per request (an open loop's queue time): how closely the client kept the schedule.
      ObjectNode n = own.putObject("schedule_lag");
      n.put("count", d.count());
      n.put("p50_ms", ms(d.percentile(50).orElse(Duration.ZERO)));
      n.put("p99_ms", ms(d.percentile(99).orElse(Duration.ZERO)));
      n.put("max_ms", ms(d.max().orElse(Duration.ZERO)));
    });
    r.prefixCache().ifPresent(p -> {
      ObjectNode n = own.putObject("prefix_cache");
      n.put("cached_tokens", p.cachedTokens());
      n.put("prompt_tokens", p.promptTokens());
      n.put("hit_rate", p.hitRate());
      n.put("source", p.source());
    });
    r.inputAlignment().ifPresent(a -> {
      ObjectNode n = own.putObject("input_alignment");
      n.put("requested_tokens", a.requestedTokens());
      n.put("method", a.method());
      n.put("template_tokens", a.templateTokens());
      n.put("planned_deviation", a.plannedDeviation());
      if (a.largestDeviation().isPresent()) n.put("largest_deviation", a.largestDeviation().getAsInt());
      else n.putNull("largest_deviation");
      n.put("checked_requests", a.checkedRequests());
    });
    r.deploymentDescription().ifPresent(d -> own.set("deployment_facts", deployment(d)));
    r.gpuTelemetry().ifPresent(g -> own.set("gpu_telemetry", GpuText.json(g)));
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

  /** A sweep's own document: its deployment, one summary per level, every finding and the conclusions. */
  static String sweep(SweepSummary summary) {
    return sweep(summary.title(), summary.deployment(), summary.levels(), summary.findings(), summary.conclusions());
  }

  /** The same document for any sweep's reading, e.g. one read back from files. */
  public static String sweep(SweepResult sweep) {
    return sweep(sweep.title(), sweep.deploymentDescription(), sweep.levels(), sweep.findings(), List.of());
  }

  private static String sweep(String title, Optional<DeploymentDescription> deployment, List<? extends SweepLevelResult> all,
      List<Finding> findings, List<String> conclusions) {
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
    conclusions.forEach(root.putArray("conclusions")::add);
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
