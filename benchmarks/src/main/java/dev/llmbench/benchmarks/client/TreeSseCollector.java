package dev.llmbench.benchmarks.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;

/**
 * The client's reading before the byte-level parser, kept as the benchmark's baseline: OkHttp's SSE reader
 * (a String per line) and a Jackson tree per event, one object per chunk.
 */
final class TreeSseCollector extends EventSourceListener {

  /** One streamed message that carried choices, as the old trace kept it. */
  record Chunk(long arrivalNanos, String content, String reasoning) {}

  private final ObjectMapper json;
  final List<Chunk> chunks = new ArrayList<>();
  final StringBuilder content = new StringBuilder();
  boolean done;
  Throwable failure;

  TreeSseCollector(ObjectMapper json) {
    this.json = json;
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
      throw new IllegalStateException("an event is not JSON", e);
    }
    JsonNode choices = node.path("choices");
    if (choices.isArray() && !choices.isEmpty()) {
      JsonNode delta = choices.get(0).path("delta");
      String c = delta.path("content").asText("");
      String r = delta.path("reasoning_content").asText(delta.path("reasoning").asText(""));
      chunks.add(new Chunk(now, c, r));
      content.append(c);
    }
  }

  @Override
  public void onFailure(EventSource source, Throwable t, okhttp3.Response response) {
    failure = t;
  }
}
