package dev.llmbench.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.engine.OpenAiResponses.ErrorReplyException;
import java.io.IOException;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which part of the embedded engine answers a request, after the checks a real server makes first, in this order:
 * not-found mode, API key, method, readiness, then for generation the fault draw, so that only requests the engine
 * would serve are numbered for faults. A refused request is answered here, whichever check refused it. Counts the
 * POSTs it receives, by route.
 *
 * <p>The API key: like vLLM's {@code --api-key}, it guards {@code /v1/...} only, while {@code /health},
 * {@code /version} and {@code /metrics} stay open; the 401 body is OpenAI-style (vLLM's own is
 * {@code {"error":"Unauthorized"}}). Or, laid out as a gateway ({@link KeyedRoutes#ALL}), it guards every route and
 * answers 403 to a key that is given but wrong.
 */
final class EmbeddedRoutes implements LoopbackHttpServer.Handler {

  static final String CHAT = "/v1/chat/completions";
  static final String COMPLETIONS = "/v1/completions";
  static final String EMBEDDINGS = "/v1/embeddings";
  static final String TOKENIZE = "/tokenize";
  /** POSTs to any other path are counted under this route label. */
  static final String OTHER_ROUTE = "other";
  private static final String RESET_PREFIX_CACHE = "/reset_prefix_cache";
  private static final Set<String> ROUTES = Set.of("/health", "/v1/models", "/version", "/metrics", CHAT, COMPLETIONS,
      RESET_PREFIX_CACHE, TOKENIZE, EMBEDDINGS);

  private static final int STARTUP_REQUESTS_KEPT = 10_000;

  private final EmbeddedOptions options;
  /** When {@code /health} starts to answer 200: the startup delay after the server listens; set by {@link #listening}. */
  private volatile long readyAtNanos;
  private volatile boolean listening;
  private final byte[] expectedAuthorization;
  private final OpenAiResponses responses;
  private final Generation generation;
  private final EmbeddingReplies embeddings;
  private final FaultInjector faults;
  private final LoopbackHttpServer.Handler metrics;
  private final Map<String, LongAdder> posts = new ConcurrentHashMap<>();
  /** Each {@code GET /health} up to the first that answered ready (bounded for a server that never is). */
  private final List<EmbeddedLlmServer.HealthRequest> startupHealthRequests = new CopyOnWriteArrayList<>();
  private volatile boolean answeredReady;

  /** @param metrics the {@code /metrics} page */
  EmbeddedRoutes(EmbeddedOptions options, OpenAiResponses responses, Generation generation,
      EmbeddingReplies embeddings, FaultInjector faults, LoopbackHttpServer.Handler metrics) {
    this.options = options;
    this.expectedAuthorization = options.apiKey() == null ? null
        : ("Bearer " + options.apiKey()).getBytes(StandardCharsets.UTF_8);
    this.responses = responses;
    this.generation = generation;
    this.embeddings = embeddings;
    this.faults = faults;
    this.metrics = metrics;
    posts.put(CHAT, new LongAdder());
    posts.put(COMPLETIONS, new LongAdder());
  }

  @Override
  public void handle(Exchange ex) throws IOException, InterruptedException {
    String path = ex.request.path();
    boolean post = "POST".equals(ex.request.method());
    if (post) posts.computeIfAbsent(ROUTES.contains(path) ? path : OTHER_ROUTE, k -> new LongAdder()).increment();
    if (options.mode() == ServerMode.NOT_FOUND) {
      OpenAiResponses.notFound(ex);
      return;
    }
    try {
      requireKey(ex, path);
      switch (path) {
        case "/health" -> {
          if (!answersHealthReady()) throw loading();
          OpenAiResponses.send(ex, 200, OpenAiResponses.healthy());
        }
        case "/v1/models" -> OpenAiResponses.send(ex, 200, responses.models());
        case "/version" -> OpenAiResponses.send(ex, 200, OpenAiResponses.version(options.profile().name()));
        case "/metrics" -> metrics.handle(ex);
        case CHAT -> generate(ex, true);
        case COMPLETIONS -> generate(ex, false);
        case RESET_PREFIX_CACHE -> { // vLLM's dev-mode route: POST forgets every cached block
          OpenAiResponses.requirePost(ex);
          generation.resetPrefixCache();
          ex.respond(200, "application/json", new byte[0]);
        }
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

  private void requireKey(Exchange ex, String path) throws ErrorReplyException {
    if (expectedAuthorization == null || !options.keyedRoutes().guards(path) || authorized(ex)) return;
    if (options.keyedRoutes() == KeyedRoutes.ALL && ex.request.header("authorization").isPresent()) {
      throw new ErrorReplyException(403, "Forbidden: the API key is not valid for this gateway", "permission_error");
    }
    ObjectNode body = OpenAiResponses.error("Incorrect or missing API key: send the header 'Authorization: Bearer <key>'",
        OpenAiResponses.INVALID_REQUEST);
    ((ObjectNode) body.get("error")).putNull("param").put("code", "invalid_api_key");
    throw new ErrorReplyException(401, body);
  }

  private boolean authorized(Exchange ex) {
    Optional<String> given = ex.request.header("authorization");
    if (given.isEmpty()) return false;
    String value = given.get();
    // The scheme is case-insensitive (RFC 9110); the key is compared in constant time.
    String normalised = value.regionMatches(true, 0, "Bearer ", 0, 7) ? "Bearer " + value.substring(7) : value;
    return MessageDigest.isEqual(normalised.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
  }

  /**
   * The server listens: the startup delay runs from now, so that it answers 503 for the whole delay however long
   * its construction took on a busy machine (a delay counted from before would be used up before any probe got in).
   */
  void listening() {
    readyAtNanos = System.nanoTime() + options.startupDelay().toNanos();
    listening = true;
  }

  /** 503 while the model is loading, as vLLM answers before it is up. */
  private void requireReady() throws ErrorReplyException {
    if (!ready(System.nanoTime())) throw loading();
  }

  private static ErrorReplyException loading() {
    return new ErrorReplyException(503, "Loading model", "unavailable_error");
  }

  private boolean ready(long now) {
    return options.mode() != ServerMode.NEVER_READY && listening && now - readyAtNanos >= 0;
  }

  /** Whether a {@code GET /health} is answered ready; kept in {@link #startupHealthRequests} until the first that is. */
  private boolean answersHealthReady() {
    long now = System.nanoTime();
    boolean ready = ready(now);
    if (!answeredReady && startupHealthRequests.size() < STARTUP_REQUESTS_KEPT) {
      startupHealthRequests.add(new EmbeddedLlmServer.HealthRequest(Duration.ofNanos(now - readyAtNanos), ready));
      answeredReady = ready;
    }
    return ready;
  }

  List<EmbeddedLlmServer.HealthRequest> startupHealthRequests() {
    return List.copyOf(startupHealthRequests);
  }

  /** POST requests received, by route (e.g. {@code /v1/chat/completions}, or {@link #OTHER_ROUTE}). */
  Map<String, Long> postsReceived() {
    Map<String, Long> counts = new LinkedHashMap<>();
    posts.forEach((route, n) -> counts.put(route, n.sum()));
    return Collections.unmodifiableMap(counts);
  }

  long postsReceived(String route) {
    LongAdder n = posts.get(route);
    return n == null ? 0 : n.sum();
  }
}
