package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.TokenSource;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.DecodeRates;
import dev.llmbench.result.Rate;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.SteadyState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * The statistics of one level's requests, computed once: counts, token totals, rates over the window,
 * distributions and intervals. Pure: the same requests always give the same figures. What they mean for
 * the reader (warnings, findings, pass or fail) is decided elsewhere.
 *
 * <p>Not a level of its own: the figures half of {@code MeasuredLevel}, the one measured level, kept here beside the
 * request metrics it reads and away from the run (docs/glossary.md, "Level"). Its static methods serve what needs a
 * figure of some requests before there is a level (an adaptive budget, a warm-up).
 */
@API(status = INTERNAL)
public abstract class LevelStatistics {

  private final List<RequestMetrics> requests;
  private final Duration window;
  private final long succeeded;
  private final Map<String, Long> errorsByType;
  private final long outputTokens;
  private final long reasoningTokens;
  private final long promptTokens;
  private final long good;
  private final long chunkTokenMismatches;
  private final TokenSource tokenSource;
  private final SampleDistribution ttft;
  private final SampleDistribution ttfo;
  private final SampleDistribution tpot;
  private final SampleDistribution itl;
  private final SampleDistribution itlPerToken;
  private final SampleDistribution e2e;
  private final SampleDistribution queueTime;
  private final SampleDistribution toolCallTtft;
  private final long checkedReplies;
  private final long unparsedReplies;
  private final long inputs;
  private final boolean embeddings;
  private final ConfidenceInterval outputThroughputCi;
  private final Optional<DecodeRates> decodeRates;

  protected LevelStatistics(List<RequestMetrics> requests, ServiceLevels slo) {
    this.requests = requests.stream().sorted(Comparator.comparingLong(r -> r.trace().startNanos())).toList();
    this.window = window(requests);
    List<RequestMetrics> ok = requests.stream().filter(RequestMetrics::succeeded).toList();
    this.succeeded = ok.size();
    this.errorsByType = requests.stream().filter(r -> !r.succeeded())
        .collect(Collectors.groupingBy(r -> r.trace().failure().key(), LinkedHashMap::new, Collectors.counting()));
    this.outputTokens = ok.stream().mapToLong(RequestMetrics::outputTokens).sum();
    this.reasoningTokens = ok.stream().mapToLong(RequestMetrics::reasoningTokens).sum();
    this.promptTokens = ok.stream().mapToLong(RequestMetrics::promptTokens).sum();
    this.good = ok.stream().filter(slo::isMetBy).count();
    this.chunkTokenMismatches = ok.stream().filter(RequestMetrics::chunkTokenMismatch).count();
    this.tokenSource = tokenSource(ok);
    this.ttft = SampleDistribution.of(flat(ok, r -> r.ttft().stream().toList()));
    this.ttfo = SampleDistribution.of(flat(ok, r -> r.ttfo().stream().toList()));
    this.tpot = SampleDistribution.of(flat(ok, r -> r.tpot().stream().toList()));
    this.itl = itls(ok);
    this.itlPerToken = itlsPerToken(ok);
    this.e2e = SampleDistribution.of(ok.stream().map(RequestMetrics::e2eLatency).toList());
    this.queueTime = SampleDistribution.of(requests.stream().map(RequestMetrics::queueTime).toList());
    this.toolCallTtft = SampleDistribution.ofNanos(ok.stream().mapToLong(r -> r.trace().toolCallTtftNanos()).filter(t -> t >= 0)
        .mapToDouble(t -> t).toArray());
    this.checkedReplies = ok.stream().filter(r -> r.trace().replyChecked()).count();
    this.unparsedReplies = ok.stream().filter(r -> r.trace().replyUnparsed()).count();
    this.inputs = ok.stream().mapToLong(r -> r.trace().embeddings()).sum();
    this.embeddings = requests.stream().anyMatch(r -> r.trace().embeddings() > 0);
    this.outputThroughputCi = outputThroughputCi(ok, window);
    this.decodeRates = decodeRates(ok);
  }

  /**
   * First request sent to the end of the last stream, its late usage chunk and {@code [DONE]} included (vLLM's
   * {@code duration}, which ends when the last response is read whole).
   */
  public static Duration window(List<RequestMetrics> requests) {
    long first = requests.stream().mapToLong(r -> r.trace().startNanos()).min().orElse(0);
    long last = requests.stream().mapToLong(r -> r.trace().streamEndNanos()).max().orElse(0);
    return Duration.ofNanos(Math.max(0, last - first));
  }

  /**
   * 95% bootstrap interval of output tokens per second over {@code window}. Throughput is
   * {@code (sum tokens / sum e2e) x (sum e2e / window)}: the second factor, the mean number of requests in
   * flight, is held at its measured value while requests are resampled.
   */
  public static ConfidenceInterval outputThroughputCi(List<RequestMetrics> ok, Duration window) {
    double meanInFlight = window.isZero() ? 0 : ok.stream().mapToDouble(r -> r.e2eLatency().toNanos()).sum() / window.toNanos();
    return Bootstrap.ratio(ok, RequestMetrics::outputTokens, r -> r.e2eLatency().toNanos() / 1e9, meanInFlight);
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

  /** Every gap between token chunks of the successful requests, straight from their arrival arrays. */
  private static SampleDistribution itls(List<RequestMetrics> ok) {
    int n = 0;
    for (RequestMetrics r : ok) n += Math.max(0, r.trace().tokenChunks() - 1);
    double[] gaps = new double[n];
    int[] at = {0};
    for (RequestMetrics r : ok) r.trace().forEachItlNanos(gap -> gaps[at[0]++] = gap);
    return SampleDistribution.ofNanos(gaps);
  }

  /** ITL per token of the successful requests whose chunks' tokens are known ({@link RequestMetrics#itlsPerToken}). */
  private static SampleDistribution itlsPerToken(List<RequestMetrics> ok) {
    int n = 0;
    for (RequestMetrics r : ok) n += r.forEachItlPerTokenNanos(v -> {});
    double[] values = new double[n];
    int[] at = {0};
    for (RequestMetrics r : ok) r.forEachItlPerTokenNanos(v -> values[at[0]++] = v);
    return SampleDistribution.ofNanos(values);
  }

  private static Optional<DecodeRates> decodeRates(List<RequestMetrics> ok) {
    double[] client = ok.stream().flatMap(r -> r.outputTokensPerSecondPerUser().stream()).mapToDouble(Double::doubleValue).toArray();
    double[] server = ok.stream().map(r -> r.trace().serverTimings().get("predicted_per_second"))
        .filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
    if (client.length == 0 || server.length == 0) return Optional.empty();
    return Optional.of(new DecodeRates(Percentiles.of(client, 50), Percentiles.of(server, 50)));
  }

  private double perSecond(double count) {
    return window.isZero() ? 0 : count * 1e9 / window.toNanos();
  }

  /** Every request with all the client observed, in the order they were sent. */
  public List<RequestMetrics> metrics() {
    return requests;
  }

  public Duration window() {
    return window;
  }

  public long succeeded() {
    return succeeded;
  }

  /** Failures by key, in order of first sight. */
  public Map<String, Long> errorsByType() {
    return Collections.unmodifiableMap(errorsByType);
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

  /** Successful requests whose {@code usage} and chunk count differ by more than 10%. */
  public long chunkTokenMismatches() {
    return chunkTokenMismatches;
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

  public Rate goodput() {
    return Rate.requestsPerSecond(perSecond(good));
  }

  /** Share of all sent requests (failures count as missed) that met every SLO. */
  public double sloAttainment() {
    return requests.isEmpty() ? 0 : (double) good / requests.size();
  }

  public ConfidenceInterval outputThroughputCi() {
    return outputThroughputCi;
  }

  /** Token-bearing chunks bucketed by arrival second, each request's tokens spread over its chunks. */
  public Rate peakOutputThroughput() {
    long start = requests.stream().mapToLong(r -> r.trace().startNanos()).min().orElse(0);
    long last = requests.stream().mapToLong(r -> r.trace().streamEndNanos()).max().orElse(start);
    double[] buckets = new double[(int) Math.max(1, (last - start) / 1_000_000_000L + 2)];
    for (RequestMetrics r : requests) {
      int chunks = r.trace().tokenChunks();
      if (!r.succeeded() || chunks == 0) continue;
      double perChunk = (double) r.outputTokens() / chunks;
      r.trace().forEachTokenNanos(at -> {
        int second = (int) Math.min(buckets.length - 1, Math.max(0, (at - start) / 1_000_000_000L));
        buckets[second] += perChunk;
      });
    }
    return Rate.tokensPerSecond(java.util.Arrays.stream(buckets).max().orElse(0));
  }

  /** The most requests in flight at once. */
  public int peakConcurrency() {
    return peakConcurrency(requests.stream().map(RequestMetrics::trace).toList());
  }

  /** The most of {@code traces} in flight at once; one that ends as another starts does not overlap it. */
  public static int peakConcurrency(List<RequestTrace> traces) {
    List<long[]> events = new ArrayList<>();
    for (RequestTrace t : traces) {
      events.add(new long[] {t.startNanos(), 1});
      events.add(new long[] {t.endNanos(), -1});
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

  /**
   * The steady part of a closed loop at {@code concurrency}: empty when the level never had that many
   * requests in flight together, or when they were in flight for no measurable time. Tokens count when
   * their chunk arrived inside the steady part, each request's tokens spread evenly over its chunks.
   */
  public Optional<SteadyState> steadyState(int concurrency) {
    if (requests.isEmpty() || concurrency < 1) return Optional.empty();
    List<long[]> events = new ArrayList<>();
    for (RequestMetrics r : requests) {
      events.add(new long[] {r.trace().startNanos(), 1});
      events.add(new long[] {r.trace().endNanos(), -1});
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1])); // ends first on ties
    long first = events.get(0)[0];
    long last = events.stream().mapToLong(e -> e[0]).max().orElse(first);
    long reached = Long.MIN_VALUE;
    long fell = Long.MIN_VALUE;
    int now = 0;
    for (long[] e : events) {
      int before = now;
      now += (int) e[1];
      if (now >= concurrency && reached == Long.MIN_VALUE) reached = e[0];
      if (before >= concurrency && now < concurrency) fell = e[0];
    }
    if (reached == Long.MIN_VALUE || fell <= reached) return Optional.empty();
    double tokens = 0;
    for (RequestMetrics r : requests) {
      RequestTrace t = r.trace();
      int chunks = t.tokenChunks();
      if (!r.succeeded() || chunks == 0) continue;
      int inside = 0;
      for (int i = 0; i < chunks; i++) {
        long at = t.tokenNanos(i);
        if (at >= reached && at <= fell) inside++;
      }
      tokens += (double) r.outputTokens() * inside / chunks;
    }
    return Optional.of(new SteadyState(concurrency, Duration.ofNanos(reached - first), Duration.ofNanos(fell - reached),
        Duration.ofNanos(last - fell), Rate.tokensPerSecond(tokens * 1e9 / (fell - reached))));
  }

  public SampleDistribution ttft() {
    return ttft;
  }

  public SampleDistribution ttfo() {
    return ttfo;
  }

  public SampleDistribution tpot() {
    return tpot;
  }

  public SampleDistribution itl() {
    return itl;
  }

  /** ITL per token: each chunk's gap over the tokens it carried, once a token; see {@link RequestMetrics#itlsPerToken}. */
  public SampleDistribution itlPerToken() {
    return itlPerToken;
  }

  public SampleDistribution e2eLatency() {
    return e2e;
  }

  /** Time to the first tool-call chunk, of the successful replies that made a tool call. */
  public SampleDistribution toolCallTtft() {
    return toolCallTtft;
  }

  /** Successful replies a structured-output check judged. */
  public long checkedReplies() {
    return checkedReplies;
  }

  /** Checked replies that did not parse, or missed their schema. */
  public long unparsedReplies() {
    return unparsedReplies;
  }

  /** Unparsed over checked replies; 0 when none was checked. */
  public double unparsedRate() {
    return checkedReplies == 0 ? 0 : (double) unparsedReplies / checkedReplies;
  }

  /** Embedded texts per second for an embeddings level; successful requests per second otherwise. */
  public Rate inputThroughput() {
    return Rate.inputsPerSecond(embeddings ? perSecond(inputs) : requestThroughput().perSecond());
  }

  /** Whether the level's requests were embeddings (some answer carried vectors). */
  public boolean isEmbeddings() {
    return embeddings;
  }

  public SampleDistribution queueTime() {
    return queueTime;
  }

  /** Medians of the client's and the server's per-request decode speed, when the server times it (llama.cpp). */
  public Optional<DecodeRates> decodeRates() {
    return decodeRates;
  }
}
