package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The measured result of one level of a sweep, injected into the test method. Every figure is defined
 * in docs/metrics.md and named by its {@link Metric}; the window runs from the first request sent to the
 * last one finished. Ratios are fractions (0..1).
 *
 * <p>LLMBench implements this interface; tests receive it and do not implement it. Its
 * {@link Object#toString()} names the level only (e.g. {@code C=8}), so that reports that record
 * parameters (Allure) see the same value on every run.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface SweepLevelResult {

  // ----- what was asked

  /** The display name: {@code C=8}, {@code rate=4/s}, {@code C=8, max_tokens=128}. */
  String label();

  /** How the level offered load. */
  LoadShape load();

  /** C for a closed loop; for an open loop its cap, or 0 when uncapped. */
  default int concurrency() {
    return load().concurrency();
  }

  /** {@code max_tokens} of every request. */
  int maxTokens();

  /** The synthetic prompt length, or 0 when prompts came from a prompt set. */
  int inputTokens();

  /** Where prompts came from: {@code builtin}, {@code prompt}, {@code jsonl:file}, {@code synthetic-512}. */
  String prompts();

  EndpointInfo endpoint();

  ServiceLevels serviceLevels();

  /** The percentiles reports show, e.g. {@code [50, 90, 99]}. */
  List<Double> percentiles();

  // ----- counts

  /** Every request of the level, in the order they were sent. */
  List<RequestResult> requests();

  default long requestCount() {
    return requests().size();
  }

  long succeeded();

  default long failed() {
    return requestCount() - succeeded();
  }

  /** Failures by key: {@code HTTP 503}, {@code TIMEOUT}, {@code CUT_STREAM}, ... in order of first sight. */
  Map<String, Long> errorsByType();

  /** Failed requests over all requests, 0..1. */
  default double errorRate() {
    return requestCount() == 0 ? 0 : (double) failed() / requestCount();
  }

  long outputTokens();

  long reasoningTokens();

  long promptTokens();

  TokenSource tokenSource();

  // ----- rates over the window

  /** First request sent to last request finished (vLLM's {@code duration}). */
  Duration window();

  Rate outputThroughput();

  /** 95% bootstrap interval of output throughput, in tokens per second. */
  ConfidenceInterval outputThroughputCi();

  Rate totalTokenThroughput();

  Rate requestThroughput();

  /** Requests that met every SLO, per second (vLLM's {@code request_goodput}). */
  Rate goodput();

  /** Share of all sent requests (failures count as missed) that met every SLO, 0..1. */
  double sloAttainment();

  /** The most output tokens in any one second of the window (vLLM's {@code max_output_tokens_per_s}). */
  Rate peakOutputThroughput();

  /** The most requests in flight at once (vLLM's {@code max_concurrent_requests}). */
  int peakConcurrency();

  /**
   * A closed loop's steady part, with all C in flight, and its output throughput; empty for an open loop,
   * or when C were never in flight together.
   */
  default Optional<SteadyState> steadyState() {
    return Optional.empty();
  }

  // ----- latency distributions of the successful requests

  Distribution ttft();

  Distribution ttfo();

  Distribution tpot();

  Distribution itl();

  Distribution e2eLatency();

  Distribution queueTime();

  /** 95% bootstrap interval of the {@code p}-th percentile of one of this level's distributions. */
  ConfidenceInterval percentileCi(Metric latency, double p);

  // ----- context

  StopReason stopReason();

  /** What measuring the level cost the client itself (CPU, wake-up lag, events read); empty when not measured. */
  default Optional<ClientLoad> clientLoad() {
    return Optional.empty();
  }

  /** What the level's warm-up did; empty when it had none. */
  default Optional<WarmupReport> warmup() {
    return Optional.empty();
  }

  /** What the server's Prometheus {@code /metrics} said about the level, when it has them. */
  Optional<ServerMetrics> serverMetrics();

  /** The client's token totals next to the server's counter deltas, when the server's family is known. */
  Optional<TokenCrossCheck> tokenCrossCheck();

  /** How much of the level's prompts the server says it took from its prefix cache, when it says so. */
  default Optional<PrefixCacheUse> prefixCache() {
    return Optional.empty();
  }

  /**
   * What the GPUs did during the level (utilisation, memory, power, energy, joules per output token), from the GPU
   * exporters of {@code llmbench.telemetry.urls}; empty without any, or when none answered.
   */
  default Optional<GpuTelemetry> gpuTelemetry() {
    return Optional.empty();
  }

  /**
   * How the level's prompts were aligned to an exact length ({@link ExactInputTokens}) and the largest
   * |{@code usage.prompt_tokens} - requested| of its requests; empty when they were not aligned.
   */
  default Optional<InputAlignment> inputAlignment() {
    return Optional.empty();
  }

  /** The client's decode rate next to the one the server reports in {@code timings}, when it does (llama.cpp). */
  Optional<DecodeRates> decodeRates();

  /** Things a reader should know before trusting the figures: estimates, too few samples, mismatches. */
  List<String> warnings();

  /**
   * What the level says about itself, as data: a cold start, instability, ramp and drain, a client that
   * may have set its figures (docs/findings.md). Findings across levels come with the sweep's {@link SweepResult}.
   */
  default List<Finding> findings() {
    return List.of();
  }

  /** What the suite said about its deployment with {@link DeploymentFacts}, when it said anything. */
  default Optional<DeploymentDescription> deploymentDescription() {
    return Optional.empty();
  }
}
