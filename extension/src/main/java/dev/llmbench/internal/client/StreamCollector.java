package dev.llmbench.internal.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ErrorKind;
import dev.llmbench.RequestFailure;
import dev.llmbench.Usage;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;

/** Turns OpenAI-style responses, streamed or whole, into a {@link RequestTrace}; never throws. */
final class StreamCollector extends EventSourceListener {

  private static final int EXCERPT = 300;

  private final ObjectMapper json;
  private final long scheduledNanos;
  private final long startNanos;
  private final Instant startedAt;
  private final int promptTokensEstimate;
  private final List<Chunk> chunks = new ArrayList<>();
  private final StringBuilder content = new StringBuilder();
  private final StringBuilder reasoning = new StringBuilder();
  private final Map<String, Double> timings = new LinkedHashMap<>();
  private String finishReason;
  private Usage usage;
  private boolean done;
  private long lastChoicesNanos;
  private RequestFailure error;
  private boolean streamed = true;

  StreamCollector(ObjectMapper json, long scheduledNanos, long startNanos, int promptTokensEstimate) {
    this.json = json;
    this.scheduledNanos = scheduledNanos;
    this.startNanos = startNanos;
    this.startedAt = Instant.now();
    this.promptTokensEstimate = promptTokensEstimate;
  }

  @Override
  public void onEvent(EventSource source, String id, String type, String data) {
    long now = System.nanoTime();
    if ("[DONE]".equals(data.strip())) {
      done = true;
      return;
    }
    JsonNode node;
    try {
      node = json.readTree(data);
    } catch (JsonProcessingException e) {
      throw new MalformedStreamException("an event is not JSON: " + excerpt(data));
    }
    if (node == null || !node.isObject()) throw new MalformedStreamException("an event is not a JSON object: " + excerpt(data));
    if (node.hasNonNull("error")) {
      JsonNode err = node.get("error");
      throw new MalformedStreamException("the server sent an error mid-stream: "
          + excerpt(err.isObject() ? err.path("message").asText(err.toString()) : err.asText()));
    }
    readMessage(node, now, true);
  }

  /** Reads one streamed chunk ({@code delta}) or a whole response ({@code message}). */
  private void readMessage(JsonNode node, long now, boolean delta) {
    JsonNode choices = node.path("choices");
    if (choices.isArray() && !choices.isEmpty()) {
      JsonNode choice = choices.get(0);
      JsonNode part = delta ? choice.path("delta") : choice.path("message");
      String c = text(part.path("content"));
      if (c.isEmpty()) c = text(choice.path("text")); // /v1/completions
      String r = text(part.path("reasoning_content"));
      if (r.isEmpty()) r = text(part.path("reasoning"));
      chunks.add(new Chunk(now, c, r));
      content.append(c);
      reasoning.append(r);
      if (choice.hasNonNull("finish_reason")) finishReason = choice.get("finish_reason").asText();
      lastChoicesNanos = now;
    }
    JsonNode u = node.path("usage");
    if (u.isObject()) {
      usage = new Usage(integer(u.path("prompt_tokens")), integer(u.path("completion_tokens")),
          integer(u.path("completion_tokens_details").path("reasoning_tokens")));
    }
    JsonNode t = node.path("timings");
    if (t.isObject()) {
      t.fields().forEachRemaining(e -> {
        if (e.getValue().isNumber()) timings.put(e.getKey(), e.getValue().asDouble());
      });
    }
  }

  @Override
  public void onFailure(EventSource source, Throwable t, Response response) {
    if (error != null) return;
    if (t instanceof MalformedStreamException m) {
      error = new RequestFailure(ErrorKind.BROKEN_STREAM, 200, m.getMessage());
    } else if (t != null) {
      error = fromException(t);
    } else {
      error = new RequestFailure(ErrorKind.BROKEN_STREAM, response == null ? 0 : response.code(), "stream failed");
    }
  }

  @Override
  public void onClosed(EventSource source) {
    // Nothing: trace() decides whether a stream that closed is complete.
  }

  /** For a response that was not an event stream: the whole body as one message. */
  void readWholeBody(String body) {
    streamed = false;
    long now = System.nanoTime();
    try {
      JsonNode node = json.readTree(body);
      if (node == null || !node.isObject()) {
        error = new RequestFailure(ErrorKind.BROKEN_STREAM, 200, "the body is not a JSON object: " + excerpt(body));
        return;
      }
      readMessage(node, now, false);
      done = true;
    } catch (JsonProcessingException e) {
      error = new RequestFailure(ErrorKind.BROKEN_STREAM, 200, "the body is not JSON: " + excerpt(body));
    }
  }

  void httpError(int status, String body) {
    error = new RequestFailure(ErrorKind.HTTP_STATUS, status, excerpt(body));
  }

  /** No response at all: a timeout or a connection that failed, never a broken stream. */
  void failedBeforeResponse(Throwable t) {
    String message = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    error = new RequestFailure(t instanceof InterruptedIOException ? ErrorKind.TIMEOUT : ErrorKind.CONNECTION, 0, message);
  }

  void failed(Throwable t) {
    if (error == null) error = fromException(t);
  }

  RequestTrace trace() {
    long end = lastChoicesNanos != 0 ? lastChoicesNanos : System.nanoTime();
    RequestFailure e = error;
    if (e == null && chunks.stream().noneMatch(Chunk::hasToken) && finishReason == null) {
      e = done ? new RequestFailure(ErrorKind.EMPTY_RESPONSE, 200, "HTTP 200 but no output")
          : new RequestFailure(ErrorKind.BROKEN_STREAM, 200, "the stream ended before any output and without [DONE]");
    } else if (e == null && streamed && !done && finishReason == null) {
      e = new RequestFailure(ErrorKind.BROKEN_STREAM, 200,
          "the stream ended after " + chunks.size() + " chunks without a finish_reason or [DONE]");
    }
    if (e != null) end = System.nanoTime();
    return new RequestTrace(scheduledNanos, startNanos, startedAt, end, chunks, content.toString(), reasoning.toString(),
        finishReason, usage, timings, promptTokensEstimate, streamed, e);
  }

  static RequestFailure fromException(Throwable t) {
    String message = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    if (t instanceof InterruptedIOException) return new RequestFailure(ErrorKind.TIMEOUT, 0, message);
    if (t instanceof ConnectException) return new RequestFailure(ErrorKind.CONNECTION, 0, message);
    if (t instanceof IOException io && isMidStream(io)) return new RequestFailure(ErrorKind.BROKEN_STREAM, 200, message);
    if (t instanceof IOException) return new RequestFailure(ErrorKind.CONNECTION, 0, message);
    return new RequestFailure(ErrorKind.BROKEN_STREAM, 0, message);
  }

  private static boolean isMidStream(IOException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("unexpected end of stream") || m.contains("closed") || m.contains("EOF");
  }

  private static String text(JsonNode node) {
    return node.isTextual() ? node.asText() : "";
  }

  private static Integer integer(JsonNode node) {
    return node.isNumber() ? node.asInt() : null;
  }

  static String excerpt(String s) {
    return Excerpt.of(s, EXCERPT);
  }

  /** Thrown out of {@link #onEvent} to stop reading a stream that is not what it should be. */
  static final class MalformedStreamException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedStreamException(String message) {
      super(message);
    }
  }
}
