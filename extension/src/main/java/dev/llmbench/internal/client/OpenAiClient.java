package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.LlmHttpException;
import dev.llmbench.client.RequestFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import okhttp3.ConnectionPool;
import okhttp3.Credentials;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apiguardian.api.API;

/**
 * The OpenAI-compatible HTTP client of one server. Generation requests go through Netty (every stream in
 * flight on a few threads, never resent once they may have left); the control plane's GETs ({@code /health},
 * {@code /v1/models}, {@code /metrics}, {@code /version}, {@code /props}) through OkHttp. Both are built from
 * one {@link ConnectionOptions}. A failed generation request never throws: its trace carries the failure,
 * so that a load level counts it and goes on.
 */
@API(status = INTERNAL)
public final class OpenAiClient implements AutoCloseable {

  private final ConnectionOptions options;
  private final Timeouts timeouts;
  private final int ioThreads;
  private final OkHttpClient http;
  /** Made on the first generation request: a client that only GETs (health, metrics) starts no event loop. */
  private NettyStreamTransport streams;
  private boolean closed;
  private final ObjectMapper json = new ObjectMapper();
  /**
   * Whether streamed requests ask for usage on every chunk ({@code stream_options.continuous_usage_stats}, vLLM's and
   * SGLang's): set once the server showed it accepts it ({@link #detectChunkUsage}), never for a server that refuses
   * unknown fields.
   */
  private volatile boolean chunkUsage;
  /** Each sending thread's buffer for request bodies, kept between requests up to {@link #KEPT_BODY_BUFFER}. */
  private final ThreadLocal<ByteArrayOutputStream> bodyBuffer = ThreadLocal.withInitial(() -> new ByteArrayOutputStream(16 << 10));
  private static final int KEPT_BODY_BUFFER = 1 << 20;

  /**
   * @param ioThreads event-loop threads that read every stream in flight
   */
  public OpenAiClient(ConnectionOptions options, Timeouts timeouts, int ioThreads) {
    this.options = options;
    this.timeouts = timeouts;
    this.ioThreads = ioThreads;
    this.http = controlPlane(options, timeouts);
  }

  /**
   * A plain server: a bearer key (or null), no proxy, the JVM's CAs.
   *
   * @param baseUrl        server root, e.g. {@code http://127.0.0.1:8000} (a trailing {@code /v1} is dropped)
   * @param requestTimeout the longest one whole request may take
   * @param idleTimeout    the longest gap between two bytes of a response
   */
  public OpenAiClient(URI baseUrl, String apiKey, Duration requestTimeout, Duration idleTimeout) {
    this(ConnectionOptions.plain(baseUrl, apiKey, Timeouts.of(requestTimeout, idleTimeout).connect()),
        Timeouts.of(requestTimeout, idleTimeout), 2);
  }

  /**
   * OkHttp for GETs, with the same headers, trust and proxy as the streams. It may retry a request on a pooled
   * connection the server had closed: GETs are idempotent, and the one POST it carries, {@code /tokenize}, changes
   * nothing and is not measured. Generation POSTs never go through it.
   */
  private static OkHttpClient controlPlane(ConnectionOptions options, Timeouts timeouts) {
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequestsPerHost(16);
    OkHttpClient.Builder b = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(4, 30, TimeUnit.SECONDS))
        .connectTimeout(timeouts.connect())
        .readTimeout(timeouts.idle())
        .callTimeout(timeouts.request())
        .followRedirects(false)
        .retryOnConnectionFailure(true)
        .socketFactory(new NoDelaySocketFactory())
        .addInterceptor(chain -> {
          Request.Builder r = chain.request().newBuilder();
          options.headers().forEach(r::header);
          return chain.proceed(r.build());
        });
    X509TrustManager trust = options.trustManager();
    if (trust != null) {
      try {
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {trust}, null);
        b.sslSocketFactory(tls.getSocketFactory(), trust);
      } catch (java.security.GeneralSecurityException e) {
        throw new IllegalStateException("TLS could not be set up: " + HttpText.describe(e), e);
      }
    }
    b.proxySelector(new java.net.ProxySelector() {
      @Override
      public List<java.net.Proxy> select(URI uri) {
        return List.of(options.proxies().proxyFor(uri)
            .map(p -> new java.net.Proxy(java.net.Proxy.Type.HTTP, InetSocketAddress.createUnresolved(p.host(), p.port())))
            .orElse(java.net.Proxy.NO_PROXY));
      }

      @Override
      public void connectFailed(URI uri, java.net.SocketAddress sa, IOException ioe) {
        // OkHttp reports the failure itself.
      }
    });
    options.proxies().proxyFor(options.baseUrl()).filter(p -> p.user().isPresent()).ifPresent(p ->
        b.proxyAuthenticator((route, response) -> response.request().header("Proxy-Authorization") != null ? null
            : response.request().newBuilder()
                .header("Proxy-Authorization", Credentials.basic(p.user().get(), p.password().orElse("")))
                .build()));
    return b.build();
  }

  public URI baseUrl() {
    return options.baseUrl();
  }

  public ConnectionOptions options() {
    return options;
  }

  /** Sends a request now and waits for its end, keeping the whole text (a smoke prompt, a readiness probe). */
  public RequestTrace send(ApiStyle api, String model, CompletionRequest request) {
    return send(api, model, request, TextCapture.FULL);
  }

  /** Sends a request now and waits for its end. */
  public RequestTrace send(ApiStyle api, String model, CompletionRequest request, TextCapture capture) {
    return sendAsync(api, model, request, System.nanoTime(), capture).join();
  }

  /**
   * Sends a request meant to go at {@code scheduledNanos} (the difference to now is queue time). The future
   * completes on an event-loop thread and never exceptionally.
   */
  public CompletableFuture<RequestTrace> sendAsync(ApiStyle api, String model, CompletionRequest request,
      long scheduledNanos, TextCapture capture) {
    return sendAsync(api, model, request, scheduledNanos, capture, Map.of());
  }

  /** {@link #sendAsync(ApiStyle, String, CompletionRequest, long, TextCapture)} with headers of its own (a session's affinity). */
  public CompletableFuture<RequestTrace> sendAsync(ApiStyle api, String model, CompletionRequest request,
      long scheduledNanos, TextCapture capture, Map<String, String> headers) {
    return sendAsync(prepare(api, model, request, capture, headers), scheduledNanos);
  }

  /**
   * {@code request} made ready to send (its JSON body's bytes), before it is due: a load generator makes it ahead so
   * that at the due time {@link #sendAsync(StreamRequest, long)} only hands the bytes over.
   */
  public StreamRequest prepare(ApiStyle api, String model, CompletionRequest request, TextCapture capture,
      Map<String, String> headers) {
    int promptEstimate = request.messages().stream().mapToInt(m -> m.content().length()).sum() / 4 + 1;
    // What the body asks, a row's own body field first, so that a level reports what its requests asked.
    Map<String, String> fields = request.bodyFields();
    int maxTokens = fields.containsKey("max_tokens") ? wholeNumber(fields.get("max_tokens"))
        : request.maxTokens() != null ? request.maxTokens() : 0;
    boolean ignoreEos = fields.containsKey("ignore_eos") ? fields.get("ignore_eos").trim().equals("true") : request.ignoreEos();
    return new StreamRequest(options.resolve(api.path()), body(api, model, request), headers, request.stream(), capture, 0,
        promptEstimate, maxTokens, ignoreEos);
  }

  private static int wholeNumber(String json) {
    try {
      return Integer.parseInt(json.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Sends a request {@link #prepare}d before, meant to go at {@code scheduledNanos}; as {@link #sendAsync}. */
  public CompletableFuture<RequestTrace> sendAsync(StreamRequest prepared, long scheduledNanos) {
    return streams().send(prepared.scheduledAt(scheduledNanos));
  }

  /** The route of {@link #embedAsync}. */
  public static final String EMBEDDINGS = "/v1/embeddings";

  /**
   * Sends {@code inputs} to {@code /v1/embeddings} as one request meant to go at {@code scheduledNanos}; its trace
   * counts the vectors that came ({@link RequestTrace#embeddings()}). Completes on an event-loop thread, never
   * exceptionally.
   */
  public CompletableFuture<RequestTrace> embedAsync(String model, List<String> inputs, long scheduledNanos) {
    ObjectNode node = json.createObjectNode();
    if (model != null) node.put("model", model);
    ArrayNode input = node.putArray("input");
    inputs.forEach(input::add);
    node.put("encoding_format", "float");
    byte[] body;
    try {
      body = json.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    int promptEstimate = inputs.stream().mapToInt(String::length).sum() / 4 + 1;
    return streams().send(new StreamRequest(options.resolve(EMBEDDINGS), body, Map.of(), false, TextCapture.NONE,
        scheduledNanos, promptEstimate));
  }

  private synchronized NettyStreamTransport streams() {
    if (closed) throw new IllegalStateException("the client of " + options.baseUrl() + " is closed");
    if (streams == null) streams = new NettyStreamTransport(options, timeouts, ioThreads);
    return streams;
  }

  /**
   * The JSON body of {@code request}: written field by field into this thread's buffer, then copied out once, so that
   * a long prompt costs one array of its bytes and no tree (at 1,000 requests/s the bodies set how often the
   * collector pauses). A body field of the request's own replaces the field of that name, as {@code stream} and
   * {@code stream_options} replace a body field's.
   */
  byte[] body(ApiStyle api, String model, CompletionRequest request) {
    return body(api, model, request, chunkUsage);
  }

  /** What {@link #detectChunkUsage} found. */
  public enum ChunkUsage {
    /** The server sent usage on a token chunk when asked: every streamed request asks. */
    ACCEPTED,
    /** It answered but sent no usage on token chunks: nothing to gain, not asked. */
    IGNORED,
    /** It refused the request that asked (a server that rejects unknown fields): not asked. */
    REFUSED
  }

  /**
   * Asks the server, with one streamed 1-token request, whether it reports usage per chunk when asked
   * ({@code stream_options.continuous_usage_stats}, vLLM's, SGLang's): then every later streamed request asks, so that
   * the tokens of the first chunk are known (TPOT from tokens, not chunks). A server that refuses the field or ignores
   * it is not asked again, and nothing fails.
   */
  public ChunkUsage detectChunkUsage(ApiStyle api, String model) {
    CompletionRequest hi = CompletionRequest.of("Hi").withMaxTokens(1);
    StreamRequest r = new StreamRequest(options.resolve(api.path()), body(api, model, hi, true), Map.of(), true,
        TextCapture.EXCERPT, 0, 1, 1, false);
    RequestTrace t = sendAsync(r, System.nanoTime()).join();
    ChunkUsage found = !t.succeeded() ? ChunkUsage.REFUSED : t.firstChunkTokens() > 0 ? ChunkUsage.ACCEPTED : ChunkUsage.IGNORED;
    chunkUsage = found == ChunkUsage.ACCEPTED;
    return found;
  }

  /** Whether streamed requests ask for usage on every chunk. */
  public boolean asksChunkUsage() {
    return chunkUsage;
  }

  private byte[] body(ApiStyle api, String model, CompletionRequest request, boolean askChunkUsage) {
    Map<String, String> fields = request.bodyFields();
    ByteArrayOutputStream out = bodyBuffer.get();
    out.reset();
    try (JsonGenerator g = json.getFactory().createGenerator(out)) {
      g.writeStartObject();
      if (!fields.containsKey("model") && model != null) g.writeStringField("model", model);
      if (api == ApiStyle.CHAT) {
        if (!fields.containsKey("messages")) {
          g.writeArrayFieldStart("messages");
          for (ChatMessage m : request.messages()) {
            g.writeStartObject();
            g.writeStringField("role", m.role());
            g.writeStringField("content", m.content());
            if (!m.toolCalls().isEmpty()) {
              // As OpenAI's chat API takes an assistant's calls back: the server's own ids, names and arguments.
              g.writeArrayFieldStart("tool_calls");
              for (ChatMessage.ToolCall c : m.toolCalls()) {
                g.writeStartObject();
                g.writeStringField("id", c.id());
                g.writeStringField("type", "function");
                g.writeObjectFieldStart("function");
                g.writeStringField("name", c.name());
                g.writeStringField("arguments", c.arguments());
                g.writeEndObject();
                g.writeEndObject();
              }
              g.writeEndArray();
            }
            if (m.toolCallId() != null) g.writeStringField("tool_call_id", m.toolCallId());
            g.writeEndObject();
          }
          g.writeEndArray();
        }
      } else if (!fields.containsKey("prompt")) {
        g.writeStringField("prompt", request.prompt());
      }
      if (!fields.containsKey("max_tokens") && request.maxTokens() != null) g.writeNumberField("max_tokens", request.maxTokens());
      if (!fields.containsKey("temperature") && request.temperature() != null) {
        g.writeNumberField("temperature", request.temperature());
      }
      if (!fields.containsKey("seed") && request.seed() != null) g.writeNumberField("seed", request.seed());
      if (!fields.containsKey("ignore_eos") && request.ignoreEos()) g.writeBooleanField("ignore_eos", true);
      // A dataset row's tools or response_format: JSON the reader already checked, written as it is.
      for (Map.Entry<String, String> f : fields.entrySet()) {
        if (f.getKey().equals("stream") || f.getKey().equals("stream_options") && request.stream()) continue;
        g.writeFieldName(f.getKey());
        g.writeRawValue(f.getValue());
      }
      g.writeBooleanField("stream", request.stream());
      if (request.stream()) {
        g.writeObjectFieldStart("stream_options");
        g.writeBooleanField("include_usage", true);
        if (askChunkUsage) g.writeBooleanField("continuous_usage_stats", true);
        g.writeEndObject();
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    byte[] body = out.toByteArray();
    if (body.length > KEPT_BODY_BUFFER) bodyBuffer.remove(); // a rare huge prompt's buffer is not kept for good
    return body;
  }

  /** GETs a path; the status and body (secrets masked), or an IOException when the server could not be reached. */
  public Optional<HttpAnswer> get(String path) throws IOException {
    Request request = new Request.Builder().url(HttpUrl.get(url(path))).header("Accept", "application/json").get().build();
    try (Response response = http.newCall(request).execute()) {
      return Optional.of(new HttpAnswer(response.code(), options.redact(response.body().string())));
    }
  }

  /** POSTs a JSON body to a path (a control-plane route such as {@code /tokenize}); the status and body, secrets masked. */
  public Optional<HttpAnswer> post(String path, byte[] json) throws IOException {
    Request request = new Request.Builder().url(HttpUrl.get(url(path))).header("Accept", "application/json")
        .post(okhttp3.RequestBody.create(json, okhttp3.MediaType.get("application/json"))).build();
    try (Response response = http.newCall(request).execute()) {
      return Optional.of(new HttpAnswer(response.code(), options.redact(response.body().string())));
    }
  }

  /** The model ids from {@code /v1/models}, in the server's order. */
  public List<String> modelIds() throws IOException {
    HttpAnswer answer = get("/v1/models").orElseThrow();
    if (answer.status() != 200) {
      byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
      throw new LlmHttpException(url("/v1/models"),
          new RequestFailure(ErrorKind.HTTP_STATUS, answer.status(), HttpText.errorSummary("", body, body.length)));
    }
    JsonNode data = json.readTree(answer.body()).path("data");
    List<String> ids = new ArrayList<>();
    data.forEach(m -> ids.add(m.path("id").asText()));
    return ids;
  }

  /** The URL of {@code path}, without credentials. */
  public String url(String path) {
    return options.resolve(path).toString();
  }

  /** A plain HTTP answer. */
  public record HttpAnswer(int status, String body) {}

  /** Aborts every generation request still running; each then records its failure as cancelled. */
  public synchronized void cancelAll() {
    if (streams != null) streams.cancelAll();
  }

  /**
   * Whether the server closes the connection after each response although it answers keep-alive (llama-server
   * does after streams): its requests then go on new connections, and their TTFT includes the connect.
   */
  public synchronized boolean serverClosesAfterEachResponse() {
    return streams != null && streams.closesAfterEachResponse(options.baseUrl());
  }

  /** The start of the thread names of the event loops that read this client's streams. */
  public String ioThreadPrefix() {
    return streams().ioThreadPrefix();
  }

  /** Generation requests sent and not yet finished. */
  public synchronized int inFlight() {
    return streams == null ? 0 : streams.inFlight();
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (streams != null) streams.close();
    }
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  /** The URL and the header names, never a value. */
  @Override
  public String toString() {
    return "OpenAiClient[" + options.baseUrl() + (options.headers().isEmpty() ? "" : ", headers " + options.headers().keySet())
        + "]";
  }
}
