package dev.llmbench.internal.embedded;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.embedded.OpenAiResponses.ErrorReplyException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apiguardian.api.API;

/**
 * An OpenAI-compatible server inside the JVM, on 127.0.0.1, driven by a {@link BatchScheduler}: the
 * default endpoint when no URL is configured, so benchmarks run on a machine with nothing installed.
 *
 * <p>Serves {@code /v1/chat/completions}, {@code /v1/completions} (streaming and not; a chat request with
 * {@code tools} or a JSON {@code response_format} gets a tool call or a JSON answer, {@link StructuredReplies}),
 * {@code /v1/embeddings} (deterministic vectors, timed by their tokens), vLLM's {@code POST /tokenize}
 * (counting exactly as {@code usage.prompt_tokens} bills, chat template included), {@code /v1/models},
 * {@code /health} (503 until the startup delay has passed), {@code /version} and {@code /metrics}
 * (Prometheus text with vLLM's metric names, plus {@code llmbench:} counters of what the server received
 * and injected).
 *
 * <p>It can misbehave on purpose, so that clients and assertions can be tested against failures
 * (see {@link EmbeddedOptions}):
 * <ul>
 *   <li>per-request faults from a {@link FaultPlan}, deterministic for a seed and countable on both sides;</li>
 *   <li>{@link ServerMode#NEVER_READY} and {@link ServerMode#NOT_FOUND};</li>
 *   <li>an API key: like vLLM's {@code --api-key}, it guards {@code /v1/...} only, while {@code /health},
 *       {@code /version} and {@code /metrics} stay open; the 401 body is OpenAI-style (vLLM's own is
 *       {@code {"error":"Unauthorized"}}). Or, laid out as a gateway ({@link KeyedRoutes#ALL}), it guards every
 *       route and answers 403 to a key that is given but wrong.</li>
 * </ul>
 * Checks run in this order: not-found mode, API key, method, readiness, then the fault draw, so only
 * requests the engine would serve are numbered for faults.
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

  static final String CHAT = "/v1/chat/completions";
  static final String COMPLETIONS = "/v1/completions";
  static final String EMBEDDINGS = "/v1/embeddings";
  /** POSTs to any other path are counted under this route label. */
  static final String OTHER_ROUTE = "other";

  private static final ObjectMapper JSON = OpenAiResponses.JSON;
  private static final String RESET_PREFIX_CACHE = "/reset_prefix_cache";
  static final String TOKENIZE = "/tokenize";
  private static final Set<String> ROUTES = Set.of("/health", "/v1/models", "/version", "/metrics", CHAT, COMPLETIONS,
      RESET_PREFIX_CACHE, TOKENIZE, EMBEDDINGS);

  private final EmbeddedOptions options;
  private final PerformanceProfile profile;
  private final OpenAiResponses responses;
  private final Generation generation;
  private final Embeddings embeddings;
  private final LoopbackHttpServer http;
  private final BatchScheduler scheduler;
  private final long readyAtNanos;
  private final byte[] expectedAuthorization;
  private final Map<String, LongAdder> posts = new ConcurrentHashMap<>();
  private final FaultInjector faults;
  /** The engine's own timing of the requests it finished, summed as vLLM's histograms sum them. */
  private final RequestTimings timings = new RequestTimings();

  private EmbeddedLlmServer(EmbeddedOptions options) throws IOException {
    this.options = options;
    this.profile = options.profile();
    this.readyAtNanos = System.nanoTime() + options.startupDelay().toNanos();
    this.expectedAuthorization = options.apiKey() == null ? null
        : ("Bearer " + options.apiKey()).getBytes(StandardCharsets.UTF_8);
    this.faults = new FaultInjector(options.faults(), options.faultSeed());
    posts.put(CHAT, new LongAdder());
    posts.put(COMPLETIONS, new LongAdder());
    PrefixCache prefixCache = options.prefixCache() ? new PrefixCache(PrefixCache.DEFAULT_CAPACITY_BLOCKS) : null;
    this.responses = new OpenAiResponses(profile.model(), prefixCache != null);
    this.scheduler = new BatchScheduler(profile, options.slowdown(), options.coldBatchStall(), prefixCache);
    this.generation = new Generation(options, scheduler, prefixCache, timings, responses, faults);
    this.embeddings = new Embeddings(profile, options.slowdown(), responses);
    try {
      this.http = new LoopbackHttpServer(options.port(), options.keepAlive(), this::route);
    } catch (IOException e) {
      scheduler.close();
      throw e;
    }
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

  /** POST requests received on {@code route} (e.g. {@code /v1/chat/completions}, or {@link #OTHER_ROUTE}), whatever became of them. */
  public long postsReceived(String route) {
    LongAdder n = posts.get(route);
    return n == null ? 0 : n.sum();
  }

  /** POST requests received, by route. */
  public Map<String, Long> postsReceived() {
    Map<String, Long> counts = new LinkedHashMap<>();
    posts.forEach((route, n) -> counts.put(route, n.sum()));
    return Collections.unmodifiableMap(counts);
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

  private boolean ready() {
    return options.mode() != ServerMode.NEVER_READY && System.nanoTime() - readyAtNanos >= 0;
  }

  private void route(Exchange ex) throws IOException, InterruptedException {
    String path = ex.request.path();
    boolean post = "POST".equals(ex.request.method());
    if (post) posts.computeIfAbsent(ROUTES.contains(path) ? path : OTHER_ROUTE, k -> new LongAdder()).increment();
    if (options.mode() == ServerMode.NOT_FOUND) {
      OpenAiResponses.notFound(ex);
      return;
    }
    try {
      if (expectedAuthorization != null && options.keyedRoutes().guards(path) && !authorized(ex)) {
        boolean given = ex.request.header("authorization").isPresent();
        if (options.keyedRoutes() == KeyedRoutes.ALL && given) {
          throw new ErrorReplyException(403, "Forbidden: the API key is not valid for this gateway", "permission_error");
        }
        ObjectNode body = OpenAiResponses.error(
            "Incorrect or missing API key: send the header 'Authorization: Bearer <key>'", OpenAiResponses.INVALID_REQUEST);
        ((ObjectNode) body.get("error")).putNull("param").put("code", "invalid_api_key");
        throw new ErrorReplyException(401, body);
      }
      switch (path) {
        case "/health" -> health(ex);
        case "/v1/models" -> OpenAiResponses.send(ex, 200, responses.models());
        case "/version" -> version(ex);
        case "/metrics" -> metrics(ex);
        case CHAT -> generate(ex, true);
        case COMPLETIONS -> generate(ex, false);
        case RESET_PREFIX_CACHE -> resetPrefixCache(ex);
        case TOKENIZE -> {
          OpenAiResponses.requirePost(ex);
          generation.tokenize(ex);
        }
        case EMBEDDINGS -> embeddings(ex);
        default -> throw new ErrorReplyException(404, "no route for " + path, "not_found");
      }
    } catch (ErrorReplyException refused) {
      OpenAiResponses.send(ex, refused);
    }
  }

  private boolean authorized(Exchange ex) {
    Optional<String> given = ex.request.header("authorization");
    if (given.isEmpty()) return false;
    String value = given.get();
    // The scheme is case-insensitive (RFC 9110); the key is compared in constant time.
    String normalised = value.regionMatches(true, 0, "Bearer ", 0, 7) ? "Bearer " + value.substring(7) : value;
    return MessageDigest.isEqual(normalised.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
  }

  private void health(Exchange ex) throws IOException, ErrorReplyException {
    requireReady();
    OpenAiResponses.send(ex, 200, JSON.createObjectNode().put("status", "ok"));
  }

  /** 503 while the model is loading, as vLLM answers before it is up. */
  private void requireReady() throws ErrorReplyException {
    if (!ready()) throw new ErrorReplyException(503, "Loading model", "unavailable_error");
  }

  private void version(Exchange ex) throws IOException {
    OpenAiResponses.send(ex, 200, JSON.createObjectNode().put("version", "llmbench-embedded/" + profile.name()));
  }

  /** vLLM's dev-mode route: POST forgets every cached block. */
  private void resetPrefixCache(Exchange ex) throws IOException, ErrorReplyException {
    OpenAiResponses.requirePost(ex);
    generation.resetPrefixCache();
    ex.respond(200, "application/json", new byte[0]);
  }

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

  private void generate(Exchange ex, boolean chat) throws IOException, InterruptedException, ErrorReplyException {
    long arrival = System.nanoTime();
    OpenAiResponses.requirePost(ex);
    requireReady();
    FaultKind fault = faults.draw();
    if (faults.actedBeforeResponse(ex, fault)) return;
    generation.generate(ex, chat, arrival, fault);
  }

  /** 404 when the route is off, as a server that does not serve embeddings answers. */
  private void embeddings(Exchange ex) throws IOException, ErrorReplyException {
    if (!options.embeddingsRoute()) {
      OpenAiResponses.notFound(ex);
      return;
    }
    OpenAiResponses.requirePost(ex);
    requireReady();
    embeddings.embed(ex);
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
