package dev.llmbench;

import dev.llmbench.internal.client.Chunk;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.internal.metrics.Distribution;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.server.ServerMetrics;
import dev.llmbench.internal.server.TokenCrossCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The measured result of one level of a sweep, injected into the test method. Every figure is defined
 * in docs/metrics.md; the window runs from the first request sent to the last one finished.
 *
 * <p>Its {@link #toString()} names the level only (e.g. {@code C=8}), so that reports that record
 * parameters (Allure) see the same value on every run.
 */
public final class SweepLevelResult {

  private final LevelPlan plan;
  private final EndpointInfo endpoint;
  private final List<RequestMetrics> requests;
  private final Duration window;
  private final ServiceLevels serviceLevels;
  private final List<Double> percentiles;
  private final Budget.StopReason stopReason;
  private final ServerMetrics serverMetrics;
  private final List<String> warnings;

  private final Map<String, Long> errorsByType;
  private final long succeeded;
  private final long outputTokens;
  private final long reasoningTokens;
  private final long promptTokens;
  private final long good;
  private final TokenSource tokenSource;
  private final Distribution ttft;
  private final Distribution ttfo;
  private final Distribution tpot;
  private final Distribution itl;
  private final Distribution e2e;
  private final Distribution queueTime;
  private final ConfidenceInterval outputThroughputCi;
  private final Optional<DecodeRates> decodeRates;
  private final Optional<TokenCrossCheck> tokenCrossCheck;

  public SweepLevelResult(LevelPlan plan, EndpointInfo endpoint, List<RequestMetrics> requests,
      ServiceLevels serviceLevels, List<Double> percentiles, Budget.StopReason stopReason,
      ServerMetrics serverMetrics, List<String> extraWarnings) {
    this.plan = plan;
    this.endpoint = endpoint;
    this.requests = List.copyOf(requests);
    this.serviceLevels = serviceLevels;
    this.percentiles = List.copyOf(percentiles);
    this.stopReason = stopReason;
    this.serverMetrics = serverMetrics;

    long first = requests.stream().mapToLong(r -> r.trace().startNanos()).min().orElse(0);
    long last = requests.stream().mapToLong(r -> r.trace().endNanos()).max().orElse(0);
    this.window = Duration.ofNanos(Math.max(0, last - first));

    List<RequestMetrics> ok = requests.stream().filter(RequestMetrics::succeeded).toList();
    this.succeeded = ok.size();
    this.errorsByType = requests.stream().filter(r -> !r.succeeded())
        .collect(Collectors.groupingBy(r -> r.trace().error().key(), LinkedHashMap::new, Collectors.counting()));
    this.outputTokens = ok.stream().mapToLong(RequestMetrics::outputTokens).sum();
    this.reasoningTokens = ok.stream().mapToLong(RequestMetrics::reasoningTokens).sum();
    this.promptTokens = ok.stream().mapToLong(RequestMetrics::promptTokens).sum();
    this.good = ok.stream().filter(serviceLevels::isMetBy).count();
    this.tokenSource = tokenSource(ok);
    this.ttft = Distribution.of(flat(ok, r -> r.ttft().stream().toList()));
    this.ttfo = Distribution.of(flat(ok, r -> r.ttfo().stream().toList()));
    this.tpot = Distribution.of(flat(ok, r -> r.tpot().stream().toList()));
    this.itl = Distribution.of(flat(ok, RequestMetrics::itls));
    this.e2e = Distribution.of(ok.stream().map(RequestMetrics::e2eLatency).toList());
    this.queueTime = Distribution.of(requests.stream().map(RequestMetrics::queueTime).toList());
    double meanInFlight = window.isZero() ? 0
        : ok.stream().mapToDouble(r -> r.e2eLatency().toNanos()).sum() / window.toNanos();
    this.outputThroughputCi = Bootstrap.ratio(ok, r -> r.outputTokens(), r -> r.e2eLatency().toNanos() / 1e9, meanInFlight);

    List<String> w = new ArrayList<>(extraWarnings);
    long mismatched = ok.stream().filter(RequestMetrics::chunkTokenMismatch).count();
    if (mismatched > 0) {
      w.add(mismatched + " of " + ok.size() + " requests: the server's usage and the number of streamed chunks differ "
          + "by more than 10% (several tokens per chunk, e.g. speculative decoding or a reasoning parser); "
          + "token counts use the server's usage");
    }
    if (tokenSource == TokenSource.CHUNK_COUNT_ESTIMATE || tokenSource == TokenSource.MIXED) {
      w.add("the server sent no usage for some requests: their output tokens are estimated from chunk counts "
          + "(it may need stream_options.include_usage)");
    }
    for (double p : percentiles) {
      if (!e2e.isEmpty() && !e2e.supports(p)) {
        w.add(Percentiles.label(p) + " rests on " + e2e.count() + " requests and is only the maximum; it needs at least "
            + Percentiles.samplesNeeded(p));
      }
    }
    this.tokenCrossCheck = serverMetrics == null ? Optional.empty() : TokenCrossCheck.of(requests, serverMetrics);
    tokenCrossCheck.filter(c -> !c.matches()).ifPresent(c -> w.add("server counters disagree with the client: " + c));
    this.decodeRates = DecodeRates.of(ok);
    decodeRates.filter(d -> !d.agree()).ifPresent(d -> w.add(String.format(Locale.ROOT,
        "decode rate: the client measured %.1f tok/s per request (1 / TPOT, median), the server's timings say %.1f "
            + "(predicted_per_second, median): they differ by more than %.0f%%", d.client(), d.server(),
        DecodeRates.TOLERANCE * 100)));
    this.warnings = List.copyOf(w);
  }

  private static TokenSource tokenSource(List<RequestMetrics> ok) {
    if (ok.isEmpty()) return TokenSource.NONE;
    boolean anyUsage = ok.stream().anyMatch(r -> r.tokenSource() == TokenSource.SERVER_USAGE);
    boolean anyEstimate = ok.stream().anyMatch(r -> r.tokenSource() == TokenSource.CHUNK_COUNT_ESTIMATE);
    return anyUsage && anyEstimate ? TokenSource.MIXED : anyUsage ? TokenSource.SERVER_USAGE : TokenSource.CHUNK_COUNT_ESTIMATE;
  }

  private static List<Duration> flat(List<RequestMetrics> ok, Function<RequestMetrics, List<Duration>> f) {
    return ok.stream().flatMap(r -> f.apply(r).stream()).toList();
  }

  private double perSecond(double count) {
    return window.isZero() ? 0 : count * 1e9 / window.toNanos();
  }

  // ----- what was asked

  public LevelPlan plan() {
    return plan;
  }

  public String label() {
    return plan.label();
  }

  public int concurrency() {
    return plan.concurrency();
  }

  public EndpointInfo endpoint() {
    return endpoint;
  }

  public ServiceLevels serviceLevels() {
    return serviceLevels;
  }

  public List<Double> percentiles() {
    return percentiles;
  }

  // ----- counts

  public List<RequestMetrics> requests() {
    return requests;
  }

  public long requestCount() {
    return requests.size();
  }

  public long succeeded() {
    return succeeded;
  }

  public long failed() {
    return requests.size() - succeeded;
  }

  /** Failures by type: {@code HTTP 503}, {@code TIMEOUT}, {@code BROKEN_STREAM}, ... in order of first sight. */
  public Map<String, Long> errorsByType() {
    return Collections.unmodifiableMap(errorsByType);
  }

  public double errorRate() {
    return requests.isEmpty() ? 0 : (double) failed() / requests.size();
  }

  public long outputTokens() {
    return outputTokens;
  }

  public long reasoningTokens() {
    return reasoningTokens;
  }

  public long promptTokens() {
    return promptTokens;
  }

  public TokenSource tokenSource() {
    return tokenSource;
  }

  // ----- rates over the window

  /** First request sent to last request finished (vLLM's {@code duration}). */
  public Duration window() {
    return window;
  }

  public Rate outputThroughput() {
    return Rate.tokensPerSecond(perSecond(outputTokens));
  }

  public Rate totalTokenThroughput() {
    return Rate.tokensPerSecond(perSecond(outputTokens + promptTokens));
  }

  public Rate requestThroughput() {
    return Rate.requestsPerSecond(perSecond(succeeded));
  }

  /** Requests that met every SLO, per second (vLLM's {@code request_goodput}). */
  public Rate goodput() {
    return Rate.requestsPerSecond(perSecond(good));
  }

  /** Share of all sent requests (failures count as missed) that met every SLO, 0..1. */
  public double sloAttainment() {
    return requests.isEmpty() ? 0 : (double) good / requests.size();
  }

  /**
   * The most output tokens in any one second of the window (vLLM's {@code max_output_tokens_per_s}):
   * token-bearing chunks bucketed by arrival second, each request's tokens spread over its chunks.
   */
  public Rate peakOutputThroughput() {
    long start = requests.stream().mapToLong(r -> r.trace().startNanos()).min().orElse(0);
    Map<Long, Double> buckets = new HashMap<>();
    for (RequestMetrics r : requests) {
      List<Chunk> chunks = r.trace().tokenChunks();
      if (!r.succeeded() || chunks.isEmpty()) continue;
      double perChunk = (double) r.outputTokens() / chunks.size();
      for (Chunk c : chunks) buckets.merge((c.arrivalNanos() - start) / 1_000_000_000L, perChunk, Double::sum);
    }
    return Rate.tokensPerSecond(buckets.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
  }

  /** The most requests in flight at once during the level (vLLM's {@code max_concurrent_requests}). */
  public int peakConcurrency() {
    List<long[]> events = new ArrayList<>();
    for (RequestMetrics r : requests) {
      events.add(new long[] {r.trace().startNanos(), 1});
      events.add(new long[] {r.trace().endNanos(), -1});
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1])); // ends first on ties
    int now = 0;
    int peak = 0;
    for (long[] e : events) {
      now += (int) e[1];
      peak = Math.max(peak, now);
    }
    return peak;
  }

  /** 95% bootstrap interval of output tokens per second. */
  public ConfidenceInterval outputThroughputCi() {
    return outputThroughputCi;
  }

  // ----- latency distributions of the successful requests

  public Distribution ttft() {
    return ttft;
  }

  public Distribution ttfo() {
    return ttfo;
  }

  public Distribution tpot() {
    return tpot;
  }

  public Distribution itl() {
    return itl;
  }

  public Distribution e2eLatency() {
    return e2e;
  }

  public Distribution queueTime() {
    return queueTime;
  }

  /** 95% bootstrap interval of a percentile of a distribution of this level. */
  public ConfidenceInterval percentileCi(Distribution d, double p) {
    return Bootstrap.percentile(d.nanos(), p);
  }

  // ----- context

  public Budget.StopReason stopReason() {
    return stopReason;
  }

  public Optional<ServerMetrics> serverMetrics() {
    return Optional.ofNullable(serverMetrics);
  }

  /** The client's token totals next to the server's counter deltas, when the server's family is known. */
  public Optional<TokenCrossCheck> tokenCrossCheck() {
    return tokenCrossCheck;
  }

  /** The client's decode rate next to the one the server reports in {@code timings}, when it reports one (llama.cpp). */
  public Optional<DecodeRates> decodeRates() {
    return decodeRates;
  }

  /**
   * Per-request decode speed as the client measured it (1 / TPOT) and as the server timed it
   * ({@code timings.predicted_per_second}), medians over the level's successful requests.
   */
  public record DecodeRates(double client, double server) {

    /** How far the two may differ: the client's TPOT also carries network and chunking jitter. */
    public static final double TOLERANCE = 0.10;

    static Optional<DecodeRates> of(List<RequestMetrics> ok) {
      double[] client = ok.stream().flatMap(r -> r.outputTokensPerSecondPerUser().stream()).mapToDouble(Double::doubleValue).toArray();
      double[] server = ok.stream().map(r -> r.trace().serverTimings().get("predicted_per_second"))
          .filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
      if (client.length == 0 || server.length == 0) return Optional.empty();
      return Optional.of(new DecodeRates(Percentiles.of(client, 50), Percentiles.of(server, 50)));
    }

    public boolean agree() {
      return Math.abs(client - server) <= TOLERANCE * server;
    }
  }

  /** Things a reader should know before trusting the figures: estimates, too few samples, mismatches. */
  public List<String> warnings() {
    return warnings;
  }

  @Override
  public String toString() {
    return plan.label();
  }
}
