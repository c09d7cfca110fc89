package dev.llmbench.offline;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.result.Distribution;
import dev.llmbench.EndpointInfo;
import dev.llmbench.result.Finding;
import dev.llmbench.result.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.result.Rate;
import dev.llmbench.client.RequestResult;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.server.TokenCrossCheck;
import dev.llmbench.client.TokenSource;
import dev.llmbench.result.DecodeRates;
import dev.llmbench.internal.analysis.Derived;
import dev.llmbench.internal.analysis.LevelFindings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A level read from a summary (a table row, a {@code vllm bench serve} result without per-request data):
 * its counts, window, throughput and the latency statistics given; no request, so no interval of its own.
 *
 * @param outputPerSecond output throughput as the summary gave it (tokens are rounded from it, not it from them)
 * @param latencies       each latency metric the summary gave
 */
record SummaryLevel(String label, LoadShape load, int maxTokens, String source, long requestCount, long succeeded,
    Duration window, double outputPerSecond, long promptTokens, Map<Metric, SummaryDistribution> latencies,
    Optional<DeploymentDescription> deployment, List<String> warnings) implements SweepLevelResult {

  static final EndpointInfo UNKNOWN = new EndpointInfo("", "", ApiStyle.CHAT, Optional.empty(), Optional.empty(),
      Duration.ZERO, List.of());

  @Override
  public int inputTokens() {
    return 0;
  }

  @Override
  public String prompts() {
    return source;
  }

  @Override
  public EndpointInfo endpoint() {
    return UNKNOWN;
  }

  @Override
  public ServiceLevels serviceLevels() {
    return ServiceLevels.none();
  }

  @Override
  public List<Double> percentiles() {
    return List.of(50.0, 99.0);
  }

  @Override
  public List<RequestResult> requests() {
    return List.of();
  }

  @Override
  public Map<String, Long> errorsByType() {
    return failed() == 0 ? Map.of() : Map.of("failed", failed());
  }

  @Override
  public long reasoningTokens() {
    return 0;
  }

  @Override
  public TokenSource tokenSource() {
    return TokenSource.SERVER_USAGE;
  }

  private double perSecond(double count) {
    return window.isZero() ? 0 : count * 1e9 / window.toNanos();
  }

  @Override
  public long outputTokens() {
    return Math.round(outputPerSecond * window.toNanos() / 1e9);
  }

  @Override
  public Rate outputThroughput() {
    return Rate.tokensPerSecond(outputPerSecond);
  }

  /** Unknown: a summary gives no requests to resample. */
  @Override
  public ConfidenceInterval outputThroughputCi() {
    return new ConfidenceInterval(outputThroughput().perSecond(), Double.NaN, Double.NaN, 0.95);
  }

  @Override
  public Rate totalTokenThroughput() {
    return Rate.tokensPerSecond(outputPerSecond + perSecond(promptTokens));
  }

  @Override
  public Rate requestThroughput() {
    return Rate.requestsPerSecond(perSecond(succeeded));
  }

  @Override
  public Rate goodput() {
    return Rate.requestsPerSecond(0);
  }

  @Override
  public double sloAttainment() {
    return 0;
  }

  @Override
  public Rate peakOutputThroughput() {
    return Rate.tokensPerSecond(Double.NaN);
  }

  @Override
  public int peakConcurrency() {
    return load.concurrency();
  }

  private Distribution latency(Metric m) {
    return latencies.getOrDefault(m, SummaryDistribution.EMPTY);
  }

  @Override
  public Distribution ttft() {
    return latency(Metric.TTFT);
  }

  @Override
  public Distribution ttfo() {
    return latency(Metric.TTFO);
  }

  @Override
  public Distribution tpot() {
    return latency(Metric.TPOT);
  }

  @Override
  public Distribution itl() {
    return latency(Metric.ITL);
  }

  @Override
  public Distribution itlPerToken() {
    return latency(Metric.ITL_PER_TOKEN);
  }

  @Override
  public Distribution e2eLatency() {
    return latency(Metric.E2E_LATENCY);
  }

  @Override
  public Distribution toolCallTtft() {
    return latency(Metric.TOOL_CALL_TTFT);
  }

  @Override
  public Distribution queueTime() {
    return latency(Metric.QUEUE_TIME);
  }

  @Override
  public ConfidenceInterval percentileCi(Metric latency, double p) {
    double v = latency.distributionOf(this).percentile(p).map(d -> (double) d.toNanos()).orElse(Double.NaN);
    return new ConfidenceInterval(v, Double.NaN, Double.NaN, 0.95);
  }

  @Override
  public StopReason stopReason() {
    return StopReason.REQUEST_COUNT;
  }

  @Override
  public Optional<ServerMetrics> serverMetrics() {
    return Optional.empty();
  }

  @Override
  public Optional<TokenCrossCheck> tokenCrossCheck() {
    return Optional.empty();
  }

  @Override
  public Optional<DecodeRates> decodeRates() {
    return Optional.empty();
  }

  @Override
  public Optional<DeploymentDescription> deploymentDescription() {
    return deployment;
  }

  /** The warnings given, then what the level's noise rests on: its own spread, or an assumption and why. */
  @Override
  public List<String> warnings() {
    List<String> w = new java.util.ArrayList<>(warnings);
    Derived.of(this).ifPresent(d -> w.add(d.noiseNote()));
    return List.copyOf(w);
  }

  @Override
  public List<Finding> findings() {
    return LevelFindings.of(this);
  }

  @Override
  public String toString() {
    return label;
  }
}
