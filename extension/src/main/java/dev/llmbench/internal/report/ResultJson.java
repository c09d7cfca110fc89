package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.EndpointInfo;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Carriage;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.MaxTokensAsked;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.Finding;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.result.StopReason;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.server.ServerStartup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * A level's result as JSON. Top-level fields carry vLLM's {@code vllm bench serve} names wherever a
 * counterpart exists (same units: seconds for {@code duration} and the per-request arrays, milliseconds
 * for the {@code *_ms} statistics), so existing scripts read it; LLMBench's own fields sit under
 * {@code llmbench} (with latency histograms that add up across shards, {@link LatencyHistograms}), and
 * per-request records under {@code requests}.
 *
 * <p>The level document's codec: {@link #write} and {@link #readLevel} side by side, and the names its
 * readers look up ({@code offline} reading an earlier sweep, {@code shard} merging shards) declared here
 * once. The per-request records are Jackson-bound ({@link RequestRecord}), as are the server's counters.
 */
@API(status = INTERNAL)
public final class ResultJson {

  public static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(SerializationFeature.INDENT_OUTPUT);
  /** Reads what a later version may have added to a record without failing. */
  private static final ObjectMapper READER = MAPPER.copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** LLMBench's own fields, beside vLLM's at the top. */
  public static final String OWN = "llmbench";
  /** The per-request records ({@link RequestRecord}). */
  public static final String REQUESTS = "requests";
  static final String DURATION = "duration";
  static final String COMPLETED = "completed";
  static final String BURSTINESS = "burstiness";
  public static final String LABEL = "label";
  static final String CONCURRENCY = "concurrency";
  static final String RATE = "rate";
  static final String MODEL = "model";
  static final String ENDPOINT = "endpoint";
  static final String TIME_TO_READY_S = "time_to_ready_s";
  static final String SERVER_VERSION = "server_version";
  static final String MAX_TOKENS = "max_tokens";
  static final String MAX_TOKENS_ASKED = "max_tokens_asked";
  static final String PROMPTS = "prompts";
  static final String STOP_REASON = "stop_reason";
  static final String SERVER_METRICS = "server_metrics";
  static final String WARMUP = "warmup";
  static final String CLIENT_LOAD = "client_load";
  static final String DEPLOYMENT_FACTS = "deployment_facts";
  /** The latency histograms ({@link LatencyHistograms}). */
  public static final String HISTOGRAMS = "histograms";
  /** vLLM's statistics: {@code mean_ttft_ms}, {@code p99_ttft_ms}; the percentiles a level reports are read off TTFT's. */
  private static final Pattern TTFT_PERCENTILE = Pattern.compile("^p(\\d+(?:\\.\\d+)?)_ttft_ms$");

  /**
   * How the level document carries each metric ({@link Carriage}): a summary value under vLLM's name, and
   * the records ({@code requests}) every reader derives it from again.
   */
  public static final Map<Metric, Carriage> CARRIES = Carriage.table(
      Map.entry(Metric.OUTPUT_THROUGHPUT, Carriage.as("output_throughput; requests[].output_tokens, e2e_ms", "from the records")),
      Map.entry(Metric.TOTAL_TOKEN_THROUGHPUT, Carriage.as("total_token_throughput; requests[].prompt_tokens", "from the records")),
      Map.entry(Metric.REQUEST_THROUGHPUT, Carriage.as("request_throughput; requests[].error", "from the records")),
      Map.entry(Metric.GOODPUT, Carriage.as("request_goodput (with an SLO); requests[]", "from the records, against the SLO the reader has")),
      Map.entry(Metric.PEAK_OUTPUT_THROUGHPUT, Carriage.as("max_output_tokens_per_s; requests[].chunk_arrivals_ms", "from the records")),
      Map.entry(Metric.SLO_ATTAINMENT, Carriage.as("llmbench.slo_attainment; requests[]", "from the records, against the SLO the reader has")),
      Map.entry(Metric.ERROR_RATE, Carriage.as("llmbench.error_rate; requests[].error", "from the records")),
      Map.entry(Metric.TTFT, Carriage.as("*_ttft_ms, ttfts; requests[].ttft_ms", "from the records")),
      Map.entry(Metric.TTFO, Carriage.as("llmbench.*_ttfo_ms; requests[].ttfo_ms", "from the records")),
      Map.entry(Metric.TPOT, Carriage.as("*_tpot_ms; requests[].tpot_ms", "from the records")),
      Map.entry(Metric.ITL, Carriage.as("*_itl_ms, itls; requests[].chunk_arrivals_ms (llmbench.report.chunk-timings)",
          "from the records' chunk arrivals; without them, spread evenly (RunFolder.spread)")),
      Map.entry(Metric.ITL_PER_TOKEN, Carriage.not("written (llmbench.*_itl_per_token_ms), not read back: the records keep no "
          + "chunk's tokens")),
      Map.entry(Metric.E2E_LATENCY, Carriage.as("*_e2el_ms, latencies; requests[].e2e_ms", "from the records")),
      Map.entry(Metric.QUEUE_TIME, Carriage.as("llmbench.*_queue_ms; requests[].queue_ms", "from the records")),
      // The replies feature writes these under its own key too (replies.*), for people; readers derive them from the records.
      Map.entry(Metric.INPUT_THROUGHPUT, Carriage.as("requests[].embeddings, e2e_ms", "from the records")),
      Map.entry(Metric.UNPARSED_RATE, Carriage.as("requests[].reply_parsed, unparsed_because", "from the records")),
      Map.entry(Metric.TOOL_CALL_TTFT, Carriage.as("requests[].tool_call_ttft_ms", "from the records")));

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
    return write(r, options, List.of());
  }

  /** The level's JSON with what the sweep's features say of it, each under {@code llmbench.<key>}. */
  public static String write(MeasuredLevel r, ReportOptions options, List<FeatureSection> sections) {
    ObjectNode root = MAPPER.createObjectNode();
    List<RequestMetrics> all = r.metrics();
    root.put(DURATION, r.window().toNanos() / 1e9);
    root.put(COMPLETED, r.succeeded());
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
      root.put(BURSTINESS, open.burstiness());
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

    ObjectNode own = root.putObject(OWN);
    own.put(LABEL, r.label());
    own.put(CONCURRENCY, r.concurrency());
    own.put(RATE, r.load() instanceof LoadShape.OpenLoop open ? open.rate().perSecond() : 0);
    own.put(MODEL, r.endpoint().model());
    own.put(ENDPOINT, r.endpoint().url());
    own.put(TIME_TO_READY_S, r.endpoint().timeToReady().toNanos() / 1e9);
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
    r.endpoint().serverVersion().ifPresent(v -> own.put(SERVER_VERSION, v));
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
    maxTokens(own, r);
    own.put(PROMPTS, r.prompts());
    own.put("token_source", r.tokenSource().name());
    own.put("total_reasoning_tokens", r.reasoningTokens());
    own.put(STOP_REASON, r.stopReason().name());
    own.put(Metric.ERROR_RATE.key(), r.errorRate());
    own.set("errors_by_type", MAPPER.valueToTree(r.errorsByType()));
    ObjectNode ci = own.putObject("output_throughput_ci95");
    ci.put("lower", r.outputThroughputCi().lower());
    ci.put("upper", r.outputThroughputCi().upper());
    if (!r.serviceLevels().isEmpty()) {
      own.put("slo", r.serviceLevels().toString());
      own.put(Metric.SLO_ATTAINMENT.key(), r.sloAttainment());
    }
    for (Metric m : List.of(Metric.TTFO, Metric.QUEUE_TIME, Metric.ITL_PER_TOKEN)) stats(own, m, r);
    ArrayNode warnings = own.putArray("warnings");
    r.warnings().forEach(warnings::add);
    r.serverMetrics().ifPresent(sm -> own.set(SERVER_METRICS, MAPPER.valueToTree(sm)));
    r.tokenCrossCheck().ifPresent(c -> own.set("token_cross_check", MAPPER.valueToTree(c)));
    r.decodeRates().ifPresent(d -> {
      own.put("decode_rate_client", d.client());
      own.put("decode_rate_server", d.server());
    });
    own.put("prefix_cache_mode", r.plan().workload().prefixCache().name());
    LevelWorkload.of(r).ifPresent(w -> own.set("workload", w.json()));
    LevelReadings.write(own, r);

    sections.forEach(f -> f.json().ifPresent(j -> own.set(f.key(), j)));

    List<RequestRecord> records = RequestRecord.allOf(r, options);
    own.set(HISTOGRAMS, LatencyHistograms.json(records, r.metrics()));
    own.put("chunk_timings", options.chunkTimings());
    own.put("resends", r.metrics().stream().mapToInt(m -> m.trace().resends()).sum());
    root.set(REQUESTS, MAPPER.valueToTree(records));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Findings as data: kind, levels, summary, evidence (name, value, unit), causes, ruled out, next steps. */
  public static ArrayNode findings(List<Finding> findings) {
    return MAPPER.valueToTree(findings);
  }

  /** A sweep's own document: its deployment, one summary per level, every finding and the conclusions. */
  static String sweep(SweepSummary summary) {
    ObjectNode verdict = MAPPER.createObjectNode().put("status", summary.verdict().status().label());
    summary.verdict().reasons().forEach(verdict.putArray("reasons")::add);
    summary.verdict().simulator().ifPresent(p -> verdict.put("simulator", p));
    verdict.put("started", summary.started().toString()).put("ended", summary.ended().toString());
    return sweep(summary.title(), Optional.of(verdict), summary.deployment(), summary.levels(), summary.findings(),
        summary.conclusions(), summary.sections());
  }

  /** The same document for any sweep's reading, e.g. one read back from files. */
  public static String sweep(SweepResult sweep) {
    return sweep(sweep.title(), Optional.empty(), sweep.deploymentDescription(), sweep.levels(), sweep.findings(), List.of(),
        List.of());
  }

  /**
   * What the level's requests asked: {@code max_tokens} when every one asked the same, and {@code max_tokens_asked}
   * (min, mean, max) whenever their bodies were recorded; a level whose requests asked different ones has no single
   * {@code max_tokens} to report.
   */
  private static void maxTokens(ObjectNode n, SweepLevelResult l) {
    Optional<MaxTokensAsked> asked = l instanceof MeasuredLevel m ? m.maxTokensAsked() : Optional.empty();
    if (asked.isEmpty()) {
      n.put(MAX_TOKENS, l.maxTokens());
      return;
    }
    asked.get().value().ifPresent(v -> n.put(MAX_TOKENS, v));
    n.set(MAX_TOKENS_ASKED, asked.get().json());
  }

  private static String sweep(String title, Optional<ObjectNode> verdict, Optional<DeploymentDescription> deployment,
      List<? extends SweepLevelResult> all, List<Finding> findings, List<String> conclusions, List<FeatureSection> sections) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("title", title);
    // First, as on every page: passed, failed or broken, and why.
    verdict.ifPresent(v -> root.set("verdict", v));
    deployment.ifPresent(d -> root.set(DEPLOYMENT_FACTS, LevelReadings.deployment(d)));
    ArrayNode levels = root.putArray("levels");
    for (SweepLevelResult l : all) {
      ObjectNode n = levels.addObject();
      n.put("label", l.label());
      n.put("concurrency", l.concurrency());
      n.put("rate", l.load() instanceof LoadShape.OpenLoop open ? open.rate().perSecond() : 0);
      maxTokens(n, l);
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
      LevelReadings.write(n, l);
    }
    root.set("findings", findings(findings));
    conclusions.forEach(root.putArray("conclusions")::add);
    sections.forEach(f -> f.json().ifPresent(j -> root.set(f.key(), j)));
    try {
      return MAPPER.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** vLLM's {@code mean_X_ms}, {@code median_X_ms}, {@code std_X_ms} and {@code pNN_X_ms}, X the metric's key. */
  private static void stats(ObjectNode node, Metric metric, MeasuredLevel r) {
    Distribution d = metric.distributionOf(r);
    List<Double> percentiles = r.percentiles();
    if (d.isEmpty()) return;
    node.put(statistic("mean", metric), ms(d.mean().orElseThrow()));
    node.put(statistic("median", metric), ms(d.percentile(50).orElseThrow()));
    node.put(statistic("std", metric), ms(d.stdDev().orElseThrow()));
    for (double p : percentiles) node.put(statistic(Formats.percentile(p), metric), ms(d.percentile(p).orElseThrow()));
  }

  /** A latency statistic's name: {@code mean_ttft_ms}, {@code p99_e2el_ms}, {@code median_ttfo_ms}. */
  public static String statistic(String stat, Metric latency) {
    return stat + "_" + latency.vllmName().orElse(latency.key()) + "_ms";
  }

  /** Where a latency's statistics sit: vLLM's at the top of the document, LLMBench's own (TTFO, queue time) under {@code llmbench}. */
  public static ObjectNode statisticsOf(Metric latency, ObjectNode root) {
    return latency.vllmName().isPresent() ? root : (ObjectNode) root.get(OWN);
  }

  private static double ms(Duration d) {
    return d.toNanos() / 1e6;
  }

  /** Whether {@code node} is a level document ({@link #write}): vLLM's names at the top, LLMBench's under {@code llmbench}. */
  public static boolean isLevel(JsonNode node) {
    return node.isObject() && node.has(OWN) && node.path(REQUESTS).isArray();
  }

  /**
   * A level document as {@link #write} wrote it, read back into what a reader rebuilds the level from; the
   * figures themselves are derived again from the records.
   *
   * @param load        a closed loop of {@code concurrency}, or an open one at {@code rate} (capped by a concurrency)
   * @param percentiles the percentiles the level reported (those of its {@code pNN_ttft_ms}); 50 without any
   * @param ttfoWritten whether the records carry {@code ttfo_ms} (a file from before TTFO was written does not:
   *                    every chunk of it is content)
   * @param histograms  the latency histograms it carried, by metric; empty for an older file
   */
  public record LevelDocument(String label, LoadShape load, int maxTokens, String prompts, EndpointInfo endpoint, StopReason stopReason,
      List<Double> percentiles, List<RequestRecord> requests, boolean ttfoWritten, Optional<ServerMetrics> serverMetrics,
      Optional<WarmupReport> warmup, Optional<ClientLoad> clientLoad, Optional<DeploymentDescription> deployment,
      Map<Metric, Histogram> histograms) {}

  /**
   * {@link #write}'s document read back.
   *
   * @throws IllegalArgumentException when its records do not read as {@link RequestRecord}s
   */
  public static LevelDocument readLevel(JsonNode root) {
    JsonNode own = root.path(OWN);
    int concurrency = own.path(CONCURRENCY).asInt();
    double rate = own.path(RATE).asDouble(0);
    LoadShape load = rate > 0
        ? new LoadShape.OpenLoop(Rate.requestsPerSecond(rate), root.path(BURSTINESS).asDouble(1),
            concurrency > 0 ? OptionalInt.of(concurrency) : OptionalInt.empty())
        : new LoadShape.ClosedLoop(Math.max(1, concurrency));
    List<Double> percentiles = new ArrayList<>();
    root.fieldNames().forEachRemaining(name -> {
      Matcher m = TTFT_PERCENTILE.matcher(name);
      if (m.matches()) percentiles.add(Double.parseDouble(m.group(1)));
    });
    if (percentiles.isEmpty()) percentiles.add(50.0);
    EndpointInfo endpoint = new EndpointInfo(own.path(ENDPOINT).asText(""), own.path(MODEL).asText(""), ApiStyle.CHAT,
        Optional.empty(), own.has(SERVER_VERSION) ? Optional.of(own.path(SERVER_VERSION).asText()) : Optional.empty(),
        Duration.ofNanos(Math.round(own.path(TIME_TO_READY_S).asDouble() * 1e9)), List.of());
    JsonNode records = root.path(REQUESTS);
    List<RequestRecord> requests;
    try {
      requests = records.isArray() ? READER.convertValue(records, new TypeReference<List<RequestRecord>>() {}) : List.of();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("its per-request records do not read: " + e.getMessage(), e);
    }
    boolean ttfo = records.isEmpty() || records.get(0).has("ttfo_ms");
    Optional<ServerMetrics> server = own.path(SERVER_METRICS).isObject()
        ? Optional.of(READER.convertValue(own.path(SERVER_METRICS), ServerMetrics.class)) : Optional.empty();
    return new LevelDocument(own.path(LABEL).asText("C=" + concurrency), load, own.path(MAX_TOKENS).asInt(1),
        own.path(PROMPTS).asText("recorded"), endpoint, stopReason(own.path(STOP_REASON).asText()), percentiles, requests,
        ttfo, server, LevelReadings.warmup(own.path(WARMUP)), LevelReadings.clientLoad(own.path(CLIENT_LOAD)),
        LevelReadings.deployment(own.path(DEPLOYMENT_FACTS)),
        LatencyHistograms.read(own.path(HISTOGRAMS)));
  }

  private static StopReason stopReason(String name) {
    try {
      return StopReason.valueOf(name);
    } catch (IllegalArgumentException e) {
      return StopReason.REQUEST_COUNT;
    }
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
    return MAPPER.convertValue(read(json).path(REQUESTS), new TypeReference<List<RequestRecord>>() {});
  }

  public static Map<String, Object> readSummary(String json) {
    return MAPPER.convertValue(read(json), new TypeReference<Map<String, Object>>() {});
  }
}
