package dev.llmbench.internal.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OpenAI-compatible server inside the JVM, on 127.0.0.1, driven by a {@link BatchScheduler}: the
 * default endpoint when no URL is configured, so benchmarks run on a machine with nothing installed.
 *
 * <p>Serves {@code /v1/chat/completions}, {@code /v1/completions} (streaming and not), {@code /v1/models},
 * {@code /health} (503 until the startup delay has passed), {@code /version} and {@code /metrics}
 * (Prometheus text with vLLM's metric names).
 */
public final class EmbeddedLlmServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DEFAULT_MAX_TOKENS = 1024;

  private final PerformanceProfile profile;
  private static final Duration KEEP_ALIVE = Duration.ofSeconds(30);

  private final LoopbackHttpServer http;
  private final BatchScheduler scheduler;
  private final long readyAtNanos;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong requestsTotal = new AtomicLong();

  private EmbeddedLlmServer(PerformanceProfile profile, int port, Duration startupDelay) throws IOException {
    this.profile = profile;
    this.readyAtNanos = System.nanoTime() + startupDelay.toNanos();
    this.scheduler = new BatchScheduler(profile);
    try {
      this.http = new LoopbackHttpServer(port, KEEP_ALIVE, this::route);
    } catch (IOException e) {
      scheduler.close();
      throw e;
    }
  }

  private void route(Exchange ex) throws IOException, InterruptedException {
    String path = ex.request.path();
    switch (path) {
      case "/health" -> health(ex);
      case "/v1/models" -> models(ex);
      case "/version" -> version(ex);
      case "/metrics" -> metrics(ex);
      case "/v1/chat/completions" -> generate(ex, true);
      case "/v1/completions" -> generate(ex, false);
      default -> sendJson(ex, 404, error("no route for " + path, "not_found"));
    }
  }

  /** Starts a server on 127.0.0.1 at {@code port} (0 for a free one). */
  public static EmbeddedLlmServer start(PerformanceProfile profile, int port, Duration startupDelay) {
    try {
      return new EmbeddedLlmServer(profile, port, startupDelay);
    } catch (IOException e) {
      throw new IllegalStateException("could not start the embedded LLM server on 127.0.0.1:" + port, e);
    }
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + http.port());
  }

  public PerformanceProfile profile() {
    return profile;
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
    return System.nanoTime() - readyAtNanos >= 0;
  }

  private void health(Exchange ex) throws IOException {
    if (ready()) sendJson(ex, 200, JSON.createObjectNode().put("status", "ok"));
    else sendJson(ex, 503, error("Loading model", "unavailable_error"));
  }

  private void models(Exchange ex) throws IOException {
    ObjectNode body = JSON.createObjectNode().put("object", "list");
    body.putArray("data").addObject().put("id", profile.model()).put("object", "model")
        .put("owned_by", "llmbench-embedded");
    sendJson(ex, 200, body);
  }

  private void version(Exchange ex) throws IOException {
    sendJson(ex, 200, JSON.createObjectNode().put("version", "llmbench-embedded/" + profile.name()));
  }

  private void metrics(Exchange ex) throws IOException {
    String label = "{model_name=\"" + profile.model() + "\"}";
    String text = ""
        + "# TYPE vllm:num_requests_running gauge\n"
        + "vllm:num_requests_running" + label + " " + scheduler.runningCount() + "\n"
        + "# TYPE vllm:num_requests_waiting gauge\n"
        + "vllm:num_requests_waiting" + label + " " + scheduler.waitingCount() + "\n"
        + "# TYPE vllm:prompt_tokens_total counter\n"
        + "vllm:prompt_tokens_total" + label + " " + scheduler.promptTokensTotal.get() + "\n"
        + "# TYPE vllm:generation_tokens_total counter\n"
        + "vllm:generation_tokens_total" + label + " " + scheduler.generationTokensTotal.get() + "\n"
        + "# TYPE vllm:request_success_total counter\n"
        + "vllm:request_success_total" + label + " " + scheduler.requestsFinished.get() + "\n"
        + "# TYPE vllm:num_preemptions_total counter\n"
        + "vllm:num_preemptions_total" + label + " 0\n"
        + "# TYPE llmbench:decode_steps_total counter\n"
        + "llmbench:decode_steps_total" + label + " " + scheduler.steps.get() + "\n"
        + "# TYPE llmbench:http_requests_total counter\n"
        + "llmbench:http_requests_total" + label + " " + requestsTotal.get() + "\n";
    ex.respond(200, "text/plain; version=0.0.4", text.getBytes(StandardCharsets.UTF_8));
  }

  private void generate(Exchange ex, boolean chat) throws IOException, InterruptedException {
    long arrival = System.nanoTime();
    requestsTotal.incrementAndGet();
    if (!"POST".equals(ex.request.method())) {
      sendJson(ex, 405, error("use POST", "invalid_request_error"));
      return;
    }
    if (!ready()) {
      sendJson(ex, 503, error("Loading model", "unavailable_error"));
      return;
    }
    JsonNode body;
    try {
      body = JSON.readTree(ex.request.body());
    } catch (IOException e) {
      sendJson(ex, 400, error("request body is not JSON: " + e.getMessage(), "invalid_request_error"));
      return;
    }
    String prompt;
    int promptTokens;
    if (chat) {
      JsonNode messages = body.path("messages");
      if (!messages.isArray() || messages.isEmpty()) {
        sendJson(ex, 400, error("'messages' must be a non-empty array", "invalid_request_error"));
        return;
      }
      StringBuilder all = new StringBuilder();
      String last = "";
      for (JsonNode m : messages) {
        last = m.path("content").asText("");
        all.append(last).append('\n');
      }
      prompt = last;
      promptTokens = TextModel.countTokens(all.toString()) + 4 * messages.size(); // chat template overhead
    } else {
      JsonNode p = body.path("prompt");
      prompt = p.isArray() ? p.path(0).asText("") : p.asText("");
      promptTokens = TextModel.countTokens(prompt);
      if (prompt.isEmpty()) {
        sendJson(ex, 400, error("'prompt' must be a non-empty string", "invalid_request_error"));
        return;
      }
    }
    int maxTokens = body.path("max_completion_tokens").asInt(body.path("max_tokens").asInt(DEFAULT_MAX_TOKENS));
    if (maxTokens < 1) {
      sendJson(ex, 400, error("max_tokens must be at least 1", "invalid_request_error"));
      return;
    }
    boolean stream = body.path("stream").asBoolean(false);
    boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
    boolean ignoreEos = body.path("ignore_eos").asBoolean(false);
    long seed = body.path("seed").asLong(0);
    long n = ids.incrementAndGet();
    String id = (chat ? "chatcmpl-" : "cmpl-") + n;
    Sequence seq = new Sequence(arrival, promptTokens, maxTokens, ignoreEos, chat ? profile.reasoningTokens() : 0,
        TextModel.answer(prompt, seed), seed ^ n);
    scheduler.submit(seq);
    boolean answered = false;
    try {
      if (stream) stream(ex, seq, id, chat, includeUsage);
      else respondWhole(ex, seq, id, chat);
      answered = true;
    } finally {
      if (!answered) seq.cancel(); // the client went away, or the server is closing: free the batch slot
    }
  }

  private void stream(Exchange ex, Sequence seq, String id, boolean chat, boolean includeUsage)
      throws IOException, InterruptedException {
    Exchange.ChunkedBody os = ex.startChunked(200, "text/event-stream", "Cache-Control", "no-cache");
    long created = System.currentTimeMillis() / 1000;
    while (true) {
      Sequence.Event e = scheduler.nextEvent(seq);
      ObjectNode chunk = JSON.createObjectNode().put("id", id)
          .put("object", chat ? "chat.completion.chunk" : "text_completion")
          .put("created", created).put("model", profile.model());
      ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
      if (e.admitted()) {
        if (!chat) continue; // completions have no role chunk
        choice.putObject("delta").put("role", "assistant").put("content", "");
        choice.putNull("finish_reason");
      } else if (e.isEnd()) {
        if (chat) choice.putObject("delta");
        else choice.put("text", "");
        choice.put("finish_reason", e.finishReason());
      } else {
        if (chat) choice.putObject("delta").put(e.reasoning() ? "reasoning_content" : "content", e.text());
        else choice.put("text", e.text());
        choice.putNull("finish_reason");
      }
      writeEvent(os, chunk.toString());
      if (e.isEnd()) break;
    }
    if (includeUsage) {
      ObjectNode usage = JSON.createObjectNode().put("id", id)
          .put("object", chat ? "chat.completion.chunk" : "text_completion")
          .put("created", created).put("model", profile.model());
      usage.putArray("choices");
      usage.set("usage", usage(seq));
      writeEvent(os, usage.toString());
    }
    writeEvent(os, "[DONE]");
    os.finish();
  }

  private static void writeEvent(Exchange.ChunkedBody os, String data) throws IOException {
    os.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
  }

  private void respondWhole(Exchange ex, Sequence seq, String id, boolean chat)
      throws IOException, InterruptedException {
    StringBuilder content = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    String finish;
    while (true) {
      Sequence.Event e = scheduler.nextEvent(seq);
      if (e.isEnd()) {
        finish = e.finishReason();
        break;
      }
      (e.reasoning() ? reasoning : content).append(e.text());
    }
    ObjectNode body = JSON.createObjectNode().put("id", id)
        .put("object", chat ? "chat.completion" : "text_completion")
        .put("created", System.currentTimeMillis() / 1000).put("model", profile.model());
    ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
    if (chat) {
      ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", content.toString());
      if (reasoning.length() > 0) message.put("reasoning_content", reasoning.toString());
    } else {
      choice.put("text", content.toString());
    }
    choice.put("finish_reason", finish);
    body.set("usage", usage(seq));
    sendJson(ex, 200, body);
  }

  private static ObjectNode usage(Sequence seq) {
    ObjectNode usage = JSON.createObjectNode()
        .put("prompt_tokens", seq.promptTokens)
        .put("completion_tokens", seq.generated())
        .put("total_tokens", seq.promptTokens + seq.generated());
    if (seq.reasoningBudget > 0) {
      usage.putObject("completion_tokens_details").put("reasoning_tokens", seq.reasoningGenerated());
    }
    return usage;
  }

  private static ObjectNode error(String message, String type) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error").put("message", message).put("type", type);
    return body;
  }

  private static void sendJson(Exchange ex, int status, JsonNode body) throws IOException {
    ex.respond(status, "application/json", JSON.writeValueAsBytes(body));
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
