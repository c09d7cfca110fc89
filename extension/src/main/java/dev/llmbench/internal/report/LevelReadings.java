package dev.llmbench.internal.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ClientCheck;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.server.DeploymentFacts;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a level's document ({@link ResultJson#write}) and each level of a sweep's document say of it besides its
 * figures, under {@code llmbench}: the steady part, the warm-up, the client's load, the schedule, the prefix cache,
 * the deployment, what the registered features read off it, and its findings; and those of them a reader rebuilds a
 * level from, read back ({@link ResultJson#readLevel}).
 */
final class LevelReadings {

  private LevelReadings() {}

  /**
   * What LLMBench read of a level besides its figures: the steady part, the warm-up, the client's own load,
   * the prefix cache, the deployment and the level's findings. Times in milliseconds, shares as fractions.
   */
  static void write(ObjectNode own, SweepLevelResult r) {
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
      ObjectNode n = own.putObject(ResultJson.WARMUP);
      n.put("requests", w.requests());
      n.put("failed", w.failed());
      n.set("errors_by_type", ResultJson.MAPPER.valueToTree(w.errorsByType()));
      n.put("max_tokens", w.maxTokens());
      // When the warm-up's requests asked several (rows of their own), max_tokens is the largest: the summary says so.
      if (r instanceof dev.llmbench.internal.core.MeasuredLevel m) {
        m.warmupMaxTokensAsked().ifPresent(a -> n.set("max_tokens_asked", a.json()));
      }
      n.put("target_in_flight", w.target());
      n.put("peak_in_flight", w.peakInFlight());
      n.put("rounds", w.rounds());
      n.put("time_ms", ms(w.time()));
    });
    r.clientLoad().ifPresent(c -> {
      ObjectNode n = own.putObject(ResultJson.CLIENT_LOAD);
      n.put("cores", c.cores());
      n.put("client_cpu_ms", ms(c.clientCpu()));
      n.put("client_cpu_share", c.clientCpuShare());
      n.put("client_wait_share", c.clientWaitShare());
      n.put("client_wait_per_run_ms", ms(c.clientWaitPerRun()));
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
    readings(own, r, LevelReading.Place.WORKLOAD);
    r.deploymentDescription().ifPresent(d -> own.set(ResultJson.DEPLOYMENT_FACTS, deployment(d)));
    readings(own, r, LevelReading.Place.DEPLOYMENT);
    own.set("findings", ResultJson.findings(r.findings()));
  }

  /** What the registered features read off the level, those at {@code place}, each under its field. */
  private static void readings(ObjectNode own, SweepLevelResult r, LevelReading.Place place) {
    Features.readings(place).forEach(reading -> reading.json(r).ifPresent(j -> own.set(reading.field(), j)));
  }

  /** The deployment's facts, those said only, and the line reports print. */
  static ObjectNode deployment(DeploymentDescription d) {
    ObjectNode n = ResultJson.MAPPER.createObjectNode();
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
    if (d.gpuCount() > 0) n.put("gpu_count", d.gpuCount());
    if (d.gpuHourPrice() > 0) n.put("gpu_hour_price_usd", d.gpuHourPrice());
    n.put("description", d.describe());
    return n;
  }

  /** {@link #deployment(DeploymentDescription)} read back: empty when the document has none. */
  static Optional<DeploymentDescription> deployment(JsonNode n) {
    if (!n.isObject()) return Optional.empty();
    return Optional.of(new DeploymentDescription(n.path("gpus").asText(""),
        DeploymentFacts.Interconnect.valueOf(n.path("interconnect").asText("UNSPECIFIED")), n.path("tensor_parallel").asInt(),
        n.path("pipeline_parallel").asInt(), n.path("data_parallel").asInt(), n.path("expert_parallel").asInt(),
        DeploymentFacts.Attention.valueOf(n.path("attention").asText("UNSPECIFIED")), n.path("quantisation").asText(""),
        n.path("engine").asText(""), n.path("notes").asText(""), n.path("gpu_count").asInt(),
        n.path("gpu_hour_price_usd").asDouble()));
  }

  /** The warm-up {@link #write} wrote. */
  static Optional<WarmupReport> warmup(JsonNode n) {
    if (!n.isObject()) return Optional.empty();
    Map<String, Long> errors = new HashMap<>();
    n.path("errors_by_type").fields().forEachRemaining(e -> errors.put(e.getKey(), e.getValue().asLong()));
    return Optional.of(new WarmupReport(n.path("requests").asInt(), n.path("failed").asInt(), errors,
        n.path("max_tokens").asInt(), n.path("target_in_flight").asInt(), n.path("peak_in_flight").asInt(),
        n.path("rounds").asInt(), msIn(n.path("time_ms"))));
  }

  /** The client's load {@link #write} wrote; its {@code client_bound_reasons} are derived again from it. */
  static Optional<ClientLoad> clientLoad(JsonNode n) {
    if (!n.isObject()) return Optional.empty();
    return Optional.of(new ClientLoad(n.path("cores").asInt(), msIn(n.path("client_cpu_ms")), n.path("client_cpu_share").asDouble(),
        n.path("client_wait_share").asDouble(Double.NaN), msIn(n.path("client_wait_per_run_ms")),
        n.path("process_cpu_share").asDouble(Double.NaN),
        n.path("machine_cpu_share").asDouble(Double.NaN),
        msIn(n.path("wakeup_lag_p50_ms")), msIn(n.path("wakeup_lag_p90_ms")), msIn(n.path("wakeup_lag_max_ms")),
        n.path("events_per_second").asDouble()));
  }

  private static Duration msIn(JsonNode n) {
    return Duration.ofNanos(Math.round(n.asDouble() * 1e6));
  }

  private static double ms(Duration d) {
    return d.toNanos() / 1e6;
  }
}
