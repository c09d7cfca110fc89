package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.client.RequestResult;
import dev.llmbench.client.TokenSource;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.DecodeRates;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.Finding;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.SteadyState;
import dev.llmbench.result.StopReason;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.server.DeploymentFacts;
import dev.llmbench.server.GpuTelemetry;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.server.ServerFigures;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.server.TokenCost;
import dev.llmbench.server.TokenCrossCheck;
import dev.llmbench.workload.ExactInputTokens;
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

  /** {@return the display name: {@code C=8}, {@code rate=4/s}, {@code C=8, max_tokens=128}} */
  String label();

  /** {@return how the level offered load} */
  LoadShape load();

  /** {@return C for a closed loop; for an open loop its cap, or 0 when uncapped} */
  default int concurrency() {
    return load().concurrency();
  }

  /** {@return {@code max_tokens} of every request} */
  int maxTokens();

  /** {@return the synthetic prompt length, or 0 when prompts came from a prompt set} */
  int inputTokens();

  /** {@return where prompts came from: {@code builtin}, {@code prompt}, {@code jsonl:file}, {@code synthetic-512}} */
  String prompts();

  /** {@return the endpoint the level ran against} */
  EndpointInfo endpoint();

  /** {@return the service-level objectives the level is checked against} */
  ServiceLevels serviceLevels();

  /** {@return the percentiles reports show, e.g. {@code [50, 90, 99]}} */
  List<Double> percentiles();

  // ----- counts

  /** {@return every request of the level, in the order they were sent} */
  List<RequestResult> requests();

  /** {@return how many requests the level sent} */
  default long requestCount() {
    return requests().size();
  }

  /** {@return how many requests succeeded} */
  long succeeded();

  /** {@return how many requests failed} */
  default long failed() {
    return requestCount() - succeeded();
  }

  /**
   * Failures by key: {@code HTTP 503}, {@code TIMEOUT}, {@code CUT_STREAM}, ... in order of first sight.
   *
   * @return the count of each kind of failure
   */
  Map<String, Long> errorsByType();

  /** {@return failed requests over all requests, 0..1} */
  default double errorRate() {
    return requestCount() == 0 ? 0 : (double) failed() / requestCount();
  }

  /** {@return the output tokens the level's requests produced, reasoning included} */
  long outputTokens();

  /** {@return the reasoning tokens among the output tokens} */
  long reasoningTokens();

  /** {@return the prompt tokens the level's requests sent} */
  long promptTokens();

  /** {@return where the output-token counts came from} */
  TokenSource tokenSource();

  // ----- rates over the window

  /** {@return first request sent to last request finished (vLLM's {@code duration})} */
  Duration window();

  /** {@return output tokens per second over the window (vLLM's {@code output_throughput})} */
  Rate outputThroughput();

  /** {@return 95% bootstrap interval of output throughput, in tokens per second} */
  ConfidenceInterval outputThroughputCi();

  /** {@return prompt and output tokens per second over the window (vLLM's {@code total_token_throughput})} */
  Rate totalTokenThroughput();

  /** {@return completed requests per second over the window (vLLM's {@code request_throughput})} */
  Rate requestThroughput();

  /**
   * Requests that met every SLO, per second (vLLM's {@code request_goodput}).
   *
   * @return the goodput, in requests per second
   */
  Rate goodput();

  /** {@return share of all sent requests (failures count as missed) that met every SLO, 0..1} */
  double sloAttainment();

  /** {@return the most output tokens in any one second of the window (vLLM's {@code max_output_tokens_per_s})} */
  Rate peakOutputThroughput();

  /**
   * {@return inputs per second over the window: an embeddings level's texts (its requests' batches summed); for a
   * generation level, one a successful request}
   */
  default Rate inputThroughput() {
    return Rate.inputsPerSecond(requestThroughput().perSecond());
  }

  /**
   * {@return the successful replies a structured-output check judged: tool calls of a request with tools, a JSON answer
   * asked for by {@code response_format}; 0 when none was asked for}
   */
  default long checkedReplies() {
    return 0;
  }

  /** {@return the checked replies that failed their check: not JSON, or not matching their schema} */
  default long unparsedReplies() {
    return 0;
  }

  /** {@return unparsed replies over checked replies, 0..1; 0 when none was checked} */
  default double unparsedRate() {
    return checkedReplies() == 0 ? 0 : (double) unparsedReplies() / checkedReplies();
  }

  /** {@return the most requests in flight at once (vLLM's {@code max_concurrent_requests})} */
  int peakConcurrency();

  /**
   * {@return a closed loop's steady part, with all C in flight, and its output throughput; empty for an open loop,
   * or when C were never in flight together}
   */
  default Optional<SteadyState> steadyState() {
    return Optional.empty();
  }

  // ----- latency distributions of the successful requests

  /** {@return time to first token, content or reasoning, of the successful requests} */
  Distribution ttft();

  /** {@return time to first output token, reasoning not counted, of the successful requests} */
  Distribution ttfo();

  /** {@return time per output token after the first, of the successful requests} */
  Distribution tpot();

  /** {@return every gap between token-bearing chunks of the successful requests} */
  Distribution itl();

  /**
   * {@return ITL per token: each gap between token-bearing chunks over the tokens the later chunk carried, once a token,
   * of the successful requests whose chunks' tokens are known (per-chunk usage, or one a chunk); empty when none are}
   */
  Distribution itlPerToken();

  /** {@return end-to-end latency of the successful requests} */
  Distribution e2eLatency();

  /** {@return time to the first chunk carrying a tool call, of the successful requests whose reply made one} */
  Distribution toolCallTtft();

  /** {@return how long requests waited under an open loop's cap before they were sent} */
  Distribution queueTime();

  /**
   * {@return an open loop's schedule lag: each request's send minus the time its schedule (drawn arrivals, or a
   * trace's timestamps) made it due, every request sent; with a concurrency cap it includes the wait for a slot}
   * It is the queue time of those levels, under the name trace replay gives it. Empty for a closed loop, whose
   * requests have no schedule.
   */
  default Optional<Distribution> scheduleLag() {
    return load() instanceof LoadShape.OpenLoop ? Optional.of(queueTime()) : Optional.empty();
  }

  /**
   * {@return 95% bootstrap interval of the {@code p}-th percentile of one of this level's distributions}
   *
   * @param latency a latency metric, such as {@link Metric#TTFT}
   * @param p the percentile, 0 &lt; p &le; 100
   */
  ConfidenceInterval percentileCi(Metric latency, double p);

  // ----- context

  /** {@return why the level stopped sending requests} */
  StopReason stopReason();

  /**
   * {@return what measuring the level cost the client itself (CPU, wake-up lag, events read); empty when not measured}
   */
  default Optional<ClientLoad> clientLoad() {
    return Optional.empty();
  }

  /** {@return what the level's warm-up did; empty when it had none} */
  default Optional<WarmupReport> warmup() {
    return Optional.empty();
  }

  /** {@return what the server's Prometheus {@code /metrics} said about the level, when it has them} */
  Optional<ServerMetrics> serverMetrics();

  /** {@return the client's token totals next to the server's counter deltas, when the server's family is known} */
  Optional<TokenCrossCheck> tokenCrossCheck();

  /** {@return how much of the level's prompts the server says it took from its prefix cache, when it says so} */
  default Optional<PrefixCacheUse> prefixCache() {
    return Optional.empty();
  }

  /**
   * {@return what the server said about its own work during the level: speculative decoding, KV-cache use,
   * preemptions and its queue, read from {@link #serverMetrics()}; empty when it reports none of them}
   */
  default Optional<ServerFigures> serverFigures() {
    return serverMetrics().flatMap(ServerFigures::of);
  }

  /**
   * {@return what the level's tokens cost, when its deployment has a price per GPU-hour and a GPU count
   * ({@link DeploymentFacts#gpuHourPrice()}): dollars per million output and input tokens over the window}
   */
  default Optional<TokenCost> tokenCost() {
    return deploymentDescription().flatMap(d -> TokenCost.of(d, window(), outputTokens(), promptTokens()));
  }

  /**
   * {@return what the GPUs did during the level (utilisation, memory, power, energy, joules per output token), from
   * the GPU exporters of {@code llmbench.telemetry.urls}; empty without any, or when none answered}
   */
  default Optional<GpuTelemetry> gpuTelemetry() {
    return Optional.empty();
  }

  /**
   * {@return how the level's prompts were aligned to an exact length ({@link ExactInputTokens}) and the largest
   * |{@code usage.prompt_tokens} - requested| of its requests; empty when they were not aligned}
   */
  default Optional<InputAlignment> inputAlignment() {
    return Optional.empty();
  }

  /**
   * {@return the client's decode rate next to the one the server reports in {@code timings}, when it does (llama.cpp)}
   */
  Optional<DecodeRates> decodeRates();

  /**
   * Things a reader should know before trusting the figures: estimates, too few samples, mismatches.
   *
   * @return the warnings, one sentence each
   */
  List<String> warnings();

  /**
   * {@return what the level says about itself, as data: a cold start, instability, ramp and drain, a client that
   * may have set its figures (docs/findings.md)} Findings across levels come with the sweep's {@link SweepResult}.
   */
  default List<Finding> findings() {
    return List.of();
  }

  /** {@return what the suite said about its deployment with {@link DeploymentFacts}, when it said anything} */
  default Optional<DeploymentDescription> deploymentDescription() {
    return Optional.empty();
  }
}
