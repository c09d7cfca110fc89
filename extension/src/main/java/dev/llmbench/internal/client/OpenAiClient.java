package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.ApiStyle;
import dev.llmbench.CompletionRequest;
import dev.llmbench.ErrorKind;
import dev.llmbench.LlmHttpException;
import dev.llmbench.RequestFailure;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSources;
import org.apiguardian.api.API;

/**
 * The OpenAI-compatible HTTP client: one call, one {@link RequestTrace}. It never throws for a failed
 * request; the trace carries the failure, so that a load level counts it and goes on.
 */
@API(status = INTERNAL)
public final class OpenAiClient implements AutoCloseable {

  private static final MediaType JSON_TYPE = MediaType.get("application/json");

  private final OkHttpClient http;
  private final HttpUrl baseUrl;
  private final String apiKey;
  private final ObjectMapper json = new ObjectMapper();
  private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();

  /**
   * @param baseUrl        server root, e.g. {@code http://127.0.0.1:8000} (a trailing {@code /v1} is dropped)
   * @param apiKey         bearer token, or null for none
   * @param requestTimeout the longest one whole request may take
   * @param idleTimeout    the longest gap between two bytes of a response
   */
  public OpenAiClient(URI baseUrl, String apiKey, Duration requestTimeout, Duration idleTimeout) {
    this.baseUrl = normalise(baseUrl);
    this.apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequests(1024);
    dispatcher.setMaxRequestsPerHost(1024);
    this.http = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(64, 5, java.util.concurrent.TimeUnit.MINUTES))
        .connectTimeout(Duration.ofSeconds(10))
        .readTimeout(idleTimeout)
        .writeTimeout(Duration.ofSeconds(30))
        .callTimeout(requestTimeout)
        // Retries only a request the server never read: a pooled connection it had closed (llama-server
        // closes after each stream). Never a request that got a response.
        .retryOnConnectionFailure(true)
        .socketFactory(new NoDelaySocketFactory())
        .build();
  }

  static HttpUrl normalise(URI uri) {
    HttpUrl url = HttpUrl.get(uri.toString());
    String path = url.encodedPath().replaceAll("/+$", "");
    if (path.endsWith("/v1")) path = path.substring(0, path.length() - 3);
    return url.newBuilder().encodedPath(path.isEmpty() ? "/" : path + "/").build();
  }

  public URI baseUrl() {
    return baseUrl.uri();
  }

  /** Sends a request now. */
  public RequestTrace send(ApiStyle api, String model, CompletionRequest request) {
    return send(api, model, request, System.nanoTime());
  }

  /** Sends a request now that was meant to go at {@code scheduledNanos} (the difference is queue time). */
  public RequestTrace send(ApiStyle api, String model, CompletionRequest request, long scheduledNanos) {
    Request httpRequest = new Request.Builder()
        .url(resolve(api.path()))
        .headers(headers(request.stream()))
        .post(RequestBody.create(body(api, model, request), JSON_TYPE))
        .build();
    int promptEstimate = request.messages().stream().mapToInt(m -> m.content().length()).sum() / 4 + 1;
    long start = System.nanoTime();
    StreamCollector collector = new StreamCollector(json, Math.min(scheduledNanos, start), start, promptEstimate);
    Call call = http.newCall(httpRequest);
    inFlight.add(call);
    try {
      return read(call, collector);
    } finally {
      inFlight.remove(call);
    }
  }

  private RequestTrace read(Call call, StreamCollector collector) {
    Response opened;
    try {
      opened = call.execute();
    } catch (IOException | RuntimeException e) {
      collector.failedBeforeResponse(e);
      return collector.trace();
    }
    try (Response response = opened) {
      ResponseBody body = response.body();
      if (!response.isSuccessful()) {
        collector.httpError(response.code(), body.string());
      } else if (isEventStream(body)) {
        EventSources.processResponse(response, collector);
      } else {
        collector.readWholeBody(body.string());
      }
    } catch (IOException | RuntimeException e) {
      collector.failed(e);
    }
    return collector.trace();
  }

  private static boolean isEventStream(ResponseBody body) {
    MediaType type = body.contentType();
    return type != null && "text".equals(type.type()) && "event-stream".equals(type.subtype());
  }

  byte[] body(ApiStyle api, String model, CompletionRequest request) {
    ObjectNode node = json.createObjectNode();
    if (model != null) node.put("model", model);
    if (api == ApiStyle.CHAT) {
      ArrayNode messages = node.putArray("messages");
      request.messages().forEach(m -> messages.addObject().put("role", m.role()).put("content", m.content()));
    } else {
      node.put("prompt", request.prompt());
    }
    if (request.maxTokens() != null) node.put("max_tokens", request.maxTokens());
    if (request.temperature() != null) node.put("temperature", request.temperature());
    if (request.seed() != null) node.put("seed", request.seed());
    if (request.ignoreEos()) node.put("ignore_eos", true);
    node.put("stream", request.stream());
    if (request.stream()) node.putObject("stream_options").put("include_usage", true);
    try {
      return json.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private okhttp3.Headers headers(boolean stream) {
    okhttp3.Headers.Builder h = new okhttp3.Headers.Builder()
        .add("Accept", stream ? "text/event-stream" : "application/json");
    if (apiKey != null) h.add("Authorization", "Bearer " + apiKey);
    return h.build();
  }

  /** GETs a path; the status and body, or empty when the server could not be reached. */
  public Optional<HttpAnswer> get(String path) throws IOException {
    Request request = new Request.Builder().url(resolve(path)).headers(headers(false)).get().build();
    try (Response response = http.newCall(request).execute()) {
      return Optional.of(new HttpAnswer(response.code(), response.body().string()));
    }
  }

  /** The model ids from {@code /v1/models}, in the server's order. */
  public List<String> modelIds() throws IOException {
    HttpAnswer answer = get("/v1/models").orElseThrow();
    if (answer.status() != 200) {
      throw new LlmHttpException(resolve("/v1/models").toString(),
          new RequestFailure(ErrorKind.HTTP_STATUS, answer.status(), StreamCollector.excerpt(answer.body())));
    }
    JsonNode data = json.readTree(answer.body()).path("data");
    List<String> ids = new ArrayList<>();
    data.forEach(m -> ids.add(m.path("id").asText()));
    return ids;
  }

  public String url(String path) {
    return resolve(path).toString();
  }

  private HttpUrl resolve(String path) {
    return baseUrl.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  /** A plain HTTP answer. */
  public record HttpAnswer(int status, String body) {}

  /** Aborts every request of this client still running; each then records its failure. */
  public void cancelAll() {
    // The dispatcher forgets a call once its headers are in, so streams being read are cancelled here.
    inFlight.forEach(Call::cancel);
  }

  @Override
  public void close() {
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  /** Never shows the key. */
  @Override
  public String toString() {
    return "OpenAiClient[" + baseUrl + (apiKey == null ? "" : ", Authorization: Bearer ***") + "]";
  }
}
