package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * An OpenAI-compatible server inside the JVM, on 127.0.0.1, driven by a {@link BatchScheduler}: the
 * default endpoint when no URL is configured, so benchmarks run on a machine with nothing installed. This class
 * puts the parts together, as OkHttp's MockWebServer does its dispatcher, and tells what they did (the accessors
 * below and {@code /metrics}); the parts do the work:
 * <ul>
 *   <li>{@link EmbeddedRoutes}: which part answers a request, after the checks (not-found mode, API key, method,
 *       readiness, the fault draw);</li>
 *   <li>{@link Generation}: {@code /v1/chat/completions} and {@code /v1/completions} (streaming and not; a chat
 *       request with {@code tools} or a JSON {@code response_format} gets a tool call or a JSON answer,
 *       {@link StructuredReplies}) and vLLM's {@code POST /tokenize} (counting exactly as {@code usage.prompt_tokens}
 *       bills, chat template included);</li>
 *   <li>{@link EmbeddingReplies}: {@code /v1/embeddings} (deterministic vectors, timed by their tokens);</li>
 *   <li>{@link OpenAiResponses}: every JSON body, error bodies included;</li>
 *   <li>{@link FaultInjector}: per-request faults from a {@link FaultPlan}, deterministic for a seed and countable on
 *       both sides (see {@link EmbeddedOptions} for the other misbehaviours: {@link ServerMode}, an API key).</li>
 * </ul>
 * It also serves {@code /v1/models}, {@code /health} (503 until the startup delay, counted from when it listens, has passed), {@code /version} and
 * {@code /metrics} (Prometheus text with vLLM's metric names, plus {@code llmbench:} counters of what the server
 * received and injected).
 *
 * <p>Engine behaviours beside the profile's timing:
 * <ul>
 *   <li>Prefix cache (on by default, as in vLLM): prompt tokens in blocks of 16, hash-chained, LRU-bounded
 *       ({@link PrefixCache}); cached tokens cost no prefill. Counted as vLLM V1 counts them, in tokens:
 *       {@code vllm:prefix_cache_queries_total} (prompt tokens looked up) and {@code vllm:prefix_cache_hits_total}
 *       (tokens served), and per request in {@code usage.prompt_tokens_details.cached_tokens}.
 *       {@code POST /reset_prefix_cache} empties it, as in vLLM's dev mode.</li>
 *   <li>Cold batch stall: the first step at a batch size whose CUDA-graph bucket has not run before takes
 *       {@code coldBatchStall} longer ({@code llmbench:cold_batch_stalls_total} counts them), so a warm-up that
 *       never reaches C in flight leaves the stall in the measured level.</li>
 *   <li>Slowdown: every step takes {@code slowdown} times the profile's time, for baseline-regression tests.</li>
 * </ul>
 */
@API(status = INTERNAL)
public final class EmbeddedLlmServer implements AutoCloseable {

  private final EmbeddedOptions options;
  private final PerformanceProfile profile;
  private final LoopbackHttpServer http;
  private final BatchScheduler scheduler;
  private final EmbeddedRoutes routes;
  private final FaultInjector faults;
  /** The engine's own timing of the requests it finished, summed as vLLM's histograms sum them. */
  private final RequestTimings timings = new RequestTimings();

  private EmbeddedLlmServer(EmbeddedOptions options) throws IOException {
    this.options = options;
    this.profile = options.profile();
    this.faults = new FaultInjector(options.faults(), options.faultSeed());
    PrefixCache prefixCache = options.prefixCache() ? new PrefixCache(PrefixCache.DEFAULT_CAPACITY_BLOCKS) : null;
    OpenAiResponses responses = new OpenAiResponses(profile.model(), prefixCache != null);
    this.scheduler = new BatchScheduler(profile, options.slowdown(), options.coldBatchStall(), prefixCache);
    this.routes = new EmbeddedRoutes(options, responses,
        new Generation(options, scheduler, prefixCache, timings, responses, faults),
        new EmbeddingReplies(profile, options.slowdown(), responses), faults, this::metrics);
    try {
      this.http = new LoopbackHttpServer(options.port(), options.keepAlive(), routes);
    } catch (IOException e) {
      scheduler.close();
      throw e;
    }
    routes.listening();
  }

  /** Starts a server on 127.0.0.1 at {@code port} (0 for a free one) with no faults. */
  public static EmbeddedLlmServer start(PerformanceProfile profile, int port, Duration startupDelay) {
    return start(EmbeddedOptions.builder(profile).port(port).startupDelay(startupDelay).build());
  }

  /** Starts a server on 127.0.0.1 as {@code options} say. */
  public static EmbeddedLlmServer start(EmbeddedOptions options) {
    try {
      return new EmbeddedLlmServer(options);
    } catch (IOException e) {
      throw new IllegalStateException("could not start the embedded LLM server on 127.0.0.1:" + options.port(), e);
    }
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + http.port());
  }

  public PerformanceProfile profile() {
    return profile;
  }

  public EmbeddedOptions options() {
    return options;
  }

  /**
   * POST requests received on {@code route} (e.g. {@code /v1/chat/completions}, or
   * {@link EmbeddedRoutes#OTHER_ROUTE}), whatever became of them.
   */
  public long postsReceived(String route) {
    return routes.postsReceived(route);
  }

  /** POST requests received, by route. */
  public Map<String, Long> postsReceived() {
    return routes.postsReceived();
  }

  /** Generation requests that passed the API-key and readiness checks: the ones numbered for faults. */
  public long generationRequests() {
    return faults.generationRequests();
  }

  /**
   * The last {@value RequestTimings#KEPT} finished requests as the engine itself timed them (arrival, first
   * chunk written, end, each gap between chunks), oldest first: what a test holds the client's figures against.
   */
  public List<RequestTimings.Finished> finishedRequests() {
    return timings.finished();
  }

  /**
   * One {@code GET /health} as the engine saw it during its startup.
   *
   * @param sinceReady when it came, after the end of the startup delay (negative: before it)
   * @param ready      whether it was answered 200 rather than 503
   */
  public record HealthRequest(Duration sinceReady, boolean ready) {}

  /**
   * The {@code GET /health} probes up to the first answered ready, timed by the engine against its own end of the
   * startup delay: what a test holds a readiness wait against.
   */
  public List<HealthRequest> startupHealthRequests() {
    return routes.startupHealthRequests();
  }

  /** Faults of {@code kind} acted out so far. */
  public long faultsInjected(FaultKind kind) {
    return faults.injected(kind);
  }

  /** Faults acted out so far, by kind, for every kind. */
  public Map<FaultKind, Long> faultsInjected() {
    return faults.injected();
  }

  /** Prompt tokens looked up in the prefix cache ({@code vllm:prefix_cache_queries_total}). */
  public long prefixCacheQueries() {
    return scheduler.prefixCacheQueries.get();
  }

  /** Prompt tokens the prefix cache served ({@code vllm:prefix_cache_hits_total}). */
  public long prefixCacheHits() {
    return scheduler.prefixCacheHits.get();
  }

  /** Steps that paid the cold-batch stall: one per batch-size bucket first run. */
  public long coldBatchStalls() {
    return scheduler.coldStalls.get();
  }

  /** The batch-size buckets that paid the cold stall, in the order they did. */
  List<Integer> stalledBuckets() {
    return scheduler.stalledBuckets();
  }

  /** Connections accepted since the start: a kept-alive client opens one. */
  long acceptedConnections() {
    return http.acceptedConnections();
  }

  int openConnections() {
    return http.openConnections();
  }

  /** Sequences in the running batch now. */
  int running() {
    return scheduler.runningCount();
  }

  /** {@code /metrics}: what the parts did, under vLLM's metric names where vLLM has one, else {@code llmbench:}. */
  private void metrics(Exchange ex) throws IOException {
    String model = "{model_name=\"" + profile.model() + "\"}";
    StringBuilder text = new StringBuilder(2048);
    sample(text, "vllm:num_requests_running", "gauge", model, scheduler.runningCount());
    sample(text, "vllm:num_requests_waiting", "gauge", model, scheduler.waitingCount());
    sample(text, "vllm:prompt_tokens_total", "counter", model, scheduler.promptTokensTotal.get());
    sample(text, "vllm:generation_tokens_total", "counter", model, scheduler.generationTokensTotal.get());
    sample(text, "vllm:request_success_total", "counter", model, scheduler.requestsFinished.get());
    sample(text, "vllm:num_preemptions_total", "counter", model, 0);
    sample(text, "vllm:prefix_cache_queries_total", "counter", model, scheduler.prefixCacheQueries.get());
    sample(text, "vllm:prefix_cache_hits_total", "counter", model, scheduler.prefixCacheHits.get());
    sample(text, "llmbench:cold_batch_stalls_total", "counter", model, scheduler.coldStalls.get());
    sample(text, "llmbench:decode_steps_total", "counter", model, scheduler.steps.get());
    sample(text, "llmbench:generation_requests_total", "counter", model, faults.generationRequests());
    timings.appendTo(text, model);
    text.append("# TYPE llmbench:http_requests_total counter\n");
    postsReceived().forEach((route, n) ->
        text.append("llmbench:http_requests_total{method=\"POST\",route=\"").append(route).append("\"} ").append(n).append('\n'));
    faults.appendMetrics(text);
    ex.respond(200, "text/plain; version=0.0.4", text.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void sample(StringBuilder text, String name, String type, String labels, long value) {
    text.append("# TYPE ").append(name).append(' ').append(type).append('\n')
        .append(name).append(labels).append(' ').append(value).append('\n');
  }

  @Override
  public void close() {
    http.close();
    scheduler.close();
  }

  @Override
  public String toString() {
    return "embedded " + profile.name() + " at " + baseUrl();
  }
}
