package dev.llmbench.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A small OpenAI-compatible server for tests that need a server behaviour the embedded engine does not
 * have: a cold path the first time it runs a batch of a new size, a prefix cache that hashes prompts in
 * blocks as vLLM does (with vLLM's counter names), and a speed that changes with the number of requests in
 * flight. Each request streams from its own thread: one token every {@code tokenTime(in flight)}.
 *
 * <pre>{@code
 * try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(5)).coldStall(Duration.ofMillis(300)).start()) {
 *   BenchKit.run(Fixture.class, "llmbench.base-url", stub.url());
 * }
 * }</pre>
 */
public final class StubEngine implements AutoCloseable {

  static {
    // Nagle's algorithm would hold the chunk after the role chunk for the client's delayed ACK (~40 ms).
    if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Builder options;
  private final HttpServer http;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "stub-engine");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final Set<Integer> seenBatchSizes = ConcurrentHashMap.newKeySet();
  private final AtomicLong stallUntil = new AtomicLong(System.nanoTime());
  private final AtomicInteger stalls = new AtomicInteger();
  private final List<java.time.Instant> stallTimes = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Set<Long> cachedBlocks = ConcurrentHashMap.newKeySet();
  private final AtomicLong prefixQueries = new AtomicLong();
  private final AtomicLong prefixHits = new AtomicLong();
  private final AtomicLong promptTokens = new AtomicLong();
  private final AtomicInteger chatRequests = new AtomicInteger();
  private final AtomicLong generationTokens = new AtomicLong();
  private final java.util.Queue<JsonNode> bodies = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final java.util.Queue<Received> received = new java.util.concurrent.ConcurrentLinkedQueue<>();

  /** A chat request as it arrived: its headers (names in lower case, first value each) and its body. */
  public record Received(java.util.Map<String, String> headers, JsonNode body) {}

  private StubEngine(Builder options) throws IOException {
    this.options = options;
    this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
    http.setExecutor(threads);
    http.createContext("/health", ex -> send(ex, 200, "application/json", "{\"status\":\"ok\"}"));
    http.createContext("/v1/models", ex -> send(ex, 200, "application/json",
        "{\"object\":\"list\",\"data\":[{\"id\":\"stub\",\"object\":\"model\"}]}"));
    http.createContext("/metrics", this::metrics);
    http.createContext("/v1/chat/completions", this::chat);
    if (options.tokenizeAnswer != null) {
      http.createContext("/tokenize", ex -> send(ex, 200, "application/json", options.tokenizeAnswer));
    }
    http.start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The server root, e.g. {@code http://127.0.0.1:40123}. */
  public String url() {
    return "http://127.0.0.1:" + http.getAddress().getPort();
  }

  /** How many cold stalls it has served: one per batch size seen for the first time. */
  public int stalls() {
    return stalls.get();
  }

  /** When each cold stall began, wall-clock. */
  public List<java.time.Instant> stallTimes() {
    return List.copyOf(stallTimes);
  }

  public int maxInFlight() {
    return maxInFlight.get();
  }

  public long prefixCacheHits() {
    return prefixHits.get();
  }

  public long prefixCacheQueries() {
    return prefixQueries.get();
  }

  /** Every chat request received with its headers, in arrival order (readiness probes and warm-ups included). */
  public List<Received> received() {
    return List.copyOf(received);
  }

  /** Every chat request body received, in arrival order (readiness probes and warm-ups included). */
  public List<JsonNode> bodies() {
    return List.copyOf(bodies);
  }

  private final AtomicInteger metricsScrapes = new AtomicInteger();

  private void metrics(HttpExchange ex) throws IOException {
    if (!options.metricsPages.isEmpty()) { // recorded pages: the first scrape gets the first, every later one the next
      int i = Math.min(metricsScrapes.getAndIncrement(), options.metricsPages.size() - 1);
      send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", options.metricsPages.get(i));
      return;
    }
    String text = "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running " + inFlight.get() + "\n"
        + "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 0\n"
        + "# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tokens_total " + promptTokens.get() + "\n"
        + "# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total " + generationTokens.get() + "\n"
        + "# TYPE vllm:prefix_cache_queries_total counter\nvllm:prefix_cache_queries_total " + prefixQueries.get() + "\n"
        + "# TYPE vllm:prefix_cache_hits_total counter\nvllm:prefix_cache_hits_total " + prefixHits.get() + "\n";
    send(ex, 200, "text/plain; version=0.0.4", text);
  }

  /** Chat completions received, whatever became of them. */
  public int chatRequests() {
    return chatRequests.get();
  }

  private void chat(HttpExchange ex) throws IOException {
    chatRequests.incrementAndGet();
    JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
    bodies.add(body);
    java.util.Map<String, String> headers = new java.util.TreeMap<>();
    ex.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), values.get(0)));
    received.add(new Received(headers, body));
    int maxTokens = body.path("max_tokens").asInt(16);
    boolean stream = body.path("stream").asBoolean(false);
    StringBuilder prompt = new StringBuilder();
    body.path("messages").forEach(m -> prompt.append(m.path("content").asText()).append(' '));
    List<String> tokens = List.of(prompt.toString().strip().split("\\s+"));
    int prompted = tokens.size();
    promptTokens.addAndGet(prompted);
    long uncached = prompted - lookUpPrefix(tokens);
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    coldIfNew(now);
    boolean[] done = {false};
    Runnable finished = () -> {
      if (!done[0]) inFlight.decrementAndGet();
      done[0] = true;
    };
    try {
      if (!stream) {
        generate(maxTokens, uncached, null);
        finished.run();
        send(ex, 200, "application/json", "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\""
            + "t ".repeat(maxTokens).strip() + "\"},\"finish_reason\":\"length\"}],\"usage\":" + usage(prompted, maxTokens) + "}");
        return;
      }
      ex.getResponseHeaders().set("Content-Type", "text/event-stream");
      ex.sendResponseHeaders(200, 0);
      try (OutputStream out = ex.getResponseBody()) {
        event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}");
        generate(maxTokens, uncached, out);
        // Out of the batch before the client can read the end and send its next request, as in an engine.
        finished.run();
        event(out, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}");
        event(out, "{\"choices\":[],\"usage\":" + usage(prompted, maxTokens) + "}");
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } finally {
      finished.run();
    }
  }

  /**
   * A batch size reached for the first time stalls every running request (a cold path). It is checked as
   * each request joins, so every size up to the largest is seen on the way there: sampled at token steps
   * instead, four requests that join within one step would skip sizes 2 and 3, which would then turn up
   * cold later, whenever a round's requests end and start out of step.
   */
  private void coldIfNew(int batch) {
    if (!options.coldStall.isZero() && seenBatchSizes.add(batch)) {
      stalls.incrementAndGet();
      stallTimes.add(java.time.Instant.now());
      stallUntil.accumulateAndGet(System.nanoTime() + options.coldStall.toNanos(), Math::max);
    }
  }

  /** The prompt's uncached tokens first, then one token per step, each after any cold stall. */
  private void generate(int maxTokens, long uncachedPromptTokens, OutputStream out) throws IOException {
    long deadline = System.nanoTime() + uncachedPromptTokens * options.prefillPerToken.toNanos();
    for (int i = 0; i < maxTokens; i++) {
      int batch = inFlight.get();
      deadline = Math.max(deadline, stallUntil.get()) + options.tokenTime.toNanos()
          + options.perExtraInFlight.toNanos() * Math.max(0, batch - 1);
      sleepUntil(deadline);
      generationTokens.incrementAndGet();
      if (out != null) event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t \"}}]}");
    }
  }

  /** vLLM's prefix cache: whole blocks, each hash chained to the one before, so a difference early misses all. */
  private long lookUpPrefix(List<String> tokens) {
    prefixQueries.addAndGet(tokens.size());
    long hash = 17;
    long hits = 0;
    boolean hitting = true;
    List<Long> blocks = new ArrayList<>();
    for (int b = 0; (b + 1) * options.blockSize <= tokens.size(); b++) {
      hash = 31 * hash + tokens.subList(b * options.blockSize, (b + 1) * options.blockSize).hashCode();
      blocks.add(hash);
      if (hitting && cachedBlocks.contains(hash)) hits += options.blockSize;
      else hitting = false;
    }
    cachedBlocks.addAll(blocks);
    prefixHits.addAndGet(hits);
    return hits;
  }

  private static String usage(int prompt, int completion) {
    ObjectNode u = JSON.createObjectNode().put("prompt_tokens", prompt).put("completion_tokens", completion)
        .put("total_tokens", prompt + completion);
    return u.toString();
  }

  private static void event(OutputStream out, String json) throws IOException {
    out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void sleepUntil(long deadline) {
    long remaining;
    while ((remaining = deadline - System.nanoTime()) > 0) LockSupport.parkNanos(remaining);
  }

  @Override
  public void close() {
    http.stop(0);
    threads.shutdownNow();
  }

  /** How the stub behaves; every option has a default. */
  public static final class Builder {
    private Duration tokenTime = Duration.ofMillis(5);
    private Duration perExtraInFlight = Duration.ZERO;
    private Duration coldStall = Duration.ZERO;
    private Duration prefillPerToken = Duration.ZERO;
    private int blockSize = 16;
    private String tokenizeAnswer;
    private List<String> metricsPages = List.of();

    /** Time per token with one request in flight (default 5 ms). */
    public Builder tokenTime(Duration tokenTime) {
      this.tokenTime = tokenTime;
      return this;
    }

    /** Added to each token's time per further request in flight (default 0). */
    public Builder perExtraInFlight(Duration perExtra) {
      this.perExtraInFlight = perExtra;
      return this;
    }

    /** The stall every running request takes when the number in flight reaches a size never seen (default none). */
    public Builder coldStall(Duration coldStall) {
      this.coldStall = coldStall;
      return this;
    }

    /** Time per prompt token not found in the prefix cache, before the first token (default 0). */
    public Builder prefillPerToken(Duration prefillPerToken) {
      this.prefillPerToken = prefillPerToken;
      return this;
    }

    /** Tokens (whitespace-separated words) per prefix-cache block (default 16, vLLM's). */
    public Builder blockSize(int blockSize) {
      this.blockSize = blockSize;
      return this;
    }

    /** A {@code POST /tokenize} route answering 200 with this body whatever it is asked (default: no such route, 404). */
    public Builder tokenizeAnswer(String body) {
      this.tokenizeAnswer = body;
      return this;
    }

    /**
     * {@code /metrics} answers the i-th scrape with the i-th page, and every scrape after the last with the last (default:
     * its own vLLM counters, live): a recorded engine's pages, so that a level's server figures are known exactly.
     */
    public Builder metricsPages(String... pages) {
      this.metricsPages = List.of(pages);
      return this;
    }

    public StubEngine start() {
      try {
        return new StubEngine(this);
      } catch (IOException e) {
        throw new IllegalStateException("could not start the stub engine on 127.0.0.1", e);
      }
    }
  }
}
