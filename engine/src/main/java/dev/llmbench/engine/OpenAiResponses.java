package dev.llmbench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The JSON the embedded engine answers with, shaped as OpenAI-compatible servers shape it: completions whole and as
 * stream chunks, their {@code usage}, error bodies, and the small bodies of the other routes. What goes into them is
 * decided elsewhere; this class only gives them their fields, in one place.
 */
final class OpenAiResponses {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String INVALID_REQUEST = "invalid_request_error";
  /** The body FastAPI gives a route it does not have: vLLM's answer where a route is off. */
  private static final byte[] NOT_FOUND = "{\"detail\":\"Not Found\"}".getBytes(StandardCharsets.US_ASCII);

  private final String model;
  private final boolean cachedTokensDetails;

  /** @param cachedTokensDetails whether {@code usage} says {@code prompt_tokens_details.cached_tokens} (cache on) */
  OpenAiResponses(String model, boolean cachedTokensDetails) {
    this.model = model;
    this.cachedTokensDetails = cachedTokensDetails;
  }

  /**
   * A request refused with an OpenAI-style error: thrown where the check is, answered in one place
   * ({@link #send(Exchange, ErrorReplyException)}). Without a stack trace: it is an answer, not a fault of the server.
   */
  static final class ErrorReplyException extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final transient ObjectNode body;

    ErrorReplyException(int status, String message, String type) {
      this(status, error(message, type));
    }

    ErrorReplyException(int status, ObjectNode body) {
      super(body.path("error").path("message").asText(), null, false, false);
      this.status = status;
      this.body = body;
    }
  }

  /** Refuses anything but a POST with 405. */
  static void requirePost(Exchange ex) throws ErrorReplyException {
    if (!"POST".equals(ex.request.method())) throw new ErrorReplyException(405, "use POST", INVALID_REQUEST);
  }

  /** The request's body read as JSON (null when it is empty), or a 400 that says why it is not JSON. */
  static JsonNode jsonBody(Exchange ex) throws ErrorReplyException {
    try {
      return JSON.readTree(ex.request.body());
    } catch (IOException e) {
      throw new ErrorReplyException(400, "request body is not JSON: " + e.getMessage(), INVALID_REQUEST);
    }
  }

  /** {@code {"error": {"message", "type"}}}, as OpenAI's API and vLLM answer an error. */
  static ObjectNode error(String message, String type) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error").put("message", message).put("type", type);
    return body;
  }

  static void send(Exchange ex, ErrorReplyException refused) throws IOException {
    send(ex, refused.status, refused.body);
  }

  static void send(Exchange ex, int status, JsonNode body) throws IOException {
    ex.respond(status, "application/json", JSON.writeValueAsBytes(body));
  }

  /** 404 with FastAPI's body, as a server without the route answers. */
  static void notFound(Exchange ex) throws IOException {
    ex.respond(404, "application/json", NOT_FOUND);
  }

  /** {@code /health} when the model is up, as vLLM answers. */
  static ObjectNode healthy() {
    return JSON.createObjectNode().put("status", "ok");
  }

  static ObjectNode version(String profileName) {
    return JSON.createObjectNode().put("version", "llmbench-embedded/" + profileName);
  }

  ObjectNode models() {
    ObjectNode body = JSON.createObjectNode().put("object", "list");
    body.putArray("data").addObject().put("id", model).put("object", "model").put("owned_by", "llmbench-embedded");
    return body;
  }

  /** vLLM's {@code /tokenize} answer: the count, the context length, and an id for each token (its hash). */
  static ObjectNode tokenized(List<String> tokens, int maxModelLen) {
    ObjectNode answer = JSON.createObjectNode().put("count", tokens.size()).put("max_model_len", maxModelLen);
    ArrayNode ids = answer.putArray("tokens");
    for (String t : tokens) ids.add(t.hashCode() & 0x7fff_ffff);
    return answer;
  }

  /** An embeddings answer: one {@code embedding} item per input, in order, and the tokens they took. */
  ObjectNode embeddings(List<double[]> vectors, long tokens) {
    ObjectNode answer = JSON.createObjectNode().put("object", "list").put("model", model);
    ArrayNode data = answer.putArray("data");
    for (int i = 0; i < vectors.size(); i++) {
      ArrayNode vector = data.addObject().put("object", "embedding").put("index", i).putArray("embedding");
      for (double v : vectors.get(i)) vector.add(v);
    }
    answer.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
    return answer;
  }

  /** The shapes of one completion, chat or text, streamed or whole. */
  Completion completion(String id, boolean chat, String toolName, long created) {
    return new Completion(id, chat, toolName, created);
  }

  /**
   * One completion's bodies. A chat request with tools is answered with a call of {@code toolName}: the generated text
   * is its arguments, and a natural stop is reported as {@code tool_calls}.
   */
  final class Completion {
    private final String id;
    private final boolean chat;
    private final String toolName;
    private final long created;

    private Completion(String id, boolean chat, String toolName, long created) {
      this.id = id;
      this.chat = chat;
      this.toolName = toolName;
      this.created = created;
    }

    private ObjectNode envelope(boolean chunk) {
      String object = chat ? (chunk ? "chat.completion.chunk" : "chat.completion") : "text_completion";
      return JSON.createObjectNode().put("id", id).put("object", object).put("created", created).put("model", model);
    }

    private ObjectNode choice(ObjectNode body) {
      return body.putArray("choices").addObject().put("index", 0);
    }

    private String finishReason(String finish) {
      return toolName != null && finish.equals("stop") ? "tool_calls" : finish;
    }

    /** A chat stream's first chunk: the assistant's role, as vLLM sends it when the request is scheduled. */
    ObjectNode roleChunk() {
      ObjectNode chunk = envelope(true);
      ObjectNode choice = choice(chunk);
      choice.putObject("delta").put("role", "assistant").put("content", "");
      choice.putNull("finish_reason");
      return chunk;
    }

    /** A chunk of generated text: content, reasoning, or a piece of a tool call's arguments. */
    ObjectNode textChunk(String text, boolean reasoning, boolean firstOfCall) {
      ObjectNode chunk = envelope(true);
      ObjectNode choice = choice(chunk);
      if (toolName != null && !reasoning) {
        // As vLLM and llama-server stream a call: id, type and name in its first delta, then pieces of the arguments.
        ObjectNode call = choice.putObject("delta").putArray("tool_calls").addObject().put("index", 0);
        if (firstOfCall) call.put("id", "call_" + id).put("type", "function");
        ObjectNode function = call.putObject("function");
        if (firstOfCall) function.put("name", toolName);
        function.put("arguments", text);
      } else if (chat) {
        choice.putObject("delta").put(reasoning ? "reasoning_content" : "content", text);
      } else {
        choice.put("text", text);
      }
      choice.putNull("finish_reason");
      return chunk;
    }

    /** The chunk that carries the finish reason, with nothing else. */
    ObjectNode finishChunk(String finish) {
      ObjectNode chunk = envelope(true);
      ObjectNode choice = choice(chunk);
      if (chat) choice.putObject("delta");
      else choice.put("text", "");
      choice.put("finish_reason", finishReason(finish));
      return chunk;
    }

    /** The chunk {@code stream_options.include_usage} asks for: no choices, the usage. */
    ObjectNode usageChunk(Sequence seq) {
      ObjectNode chunk = envelope(true);
      chunk.putArray("choices");
      chunk.set("usage", usage(seq));
      return chunk;
    }

    /** The whole completion, for a request that does not stream. */
    ObjectNode whole(String content, String reasoning, String finish, Sequence seq) {
      ObjectNode body = envelope(false);
      ObjectNode choice = choice(body);
      if (chat) {
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (toolName != null) {
          message.putNull("content");
          ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + id).put("type", "function");
          call.putObject("function").put("name", toolName).put("arguments", content);
        } else {
          message.put("content", content);
        }
        if (!reasoning.isEmpty()) message.put("reasoning_content", reasoning);
      } else {
        choice.put("text", content);
      }
      choice.put("finish_reason", finishReason(finish));
      body.set("usage", usage(seq));
      return body;
    }
  }

  private ObjectNode usage(Sequence seq) {
    ObjectNode usage = JSON.createObjectNode()
        .put("prompt_tokens", seq.promptTokens)
        .put("completion_tokens", seq.generated())
        .put("total_tokens", seq.promptTokens + seq.generated());
    // Always there while the cache is on, 0 included (as llama-server); vLLM sends it only with
    // --enable-prompt-tokens-details, and only when it is above 0.
    if (cachedTokensDetails) usage.putObject("prompt_tokens_details").put("cached_tokens", seq.cachedTokens);
    if (seq.reasoningBudget > 0) {
      usage.putObject("completion_tokens_details").put("reasoning_tokens", seq.reasoningGenerated());
    }
    return usage;
  }
}
