package dev.llmbench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * What the embedded engine answers to a request with {@code tools} or a JSON {@code response_format}: a call of the
 * named (or first) tool whose arguments are an instance of its {@code parameters} schema, or a JSON answer that is an
 * instance of the response schema ({@code {"answer": ...}} for {@code json_object}). Deterministic, so that a test
 * knows what parses; cut short on purpose when the engine is told to misbehave under load.
 */
final class StructuredReplies {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * A structured reply.
   *
   * @param toolName the tool called, or null for a JSON answer in the content
   * @param json     the arguments, or the answer
   */
  record Reply(String toolName, String json) {
    boolean isToolCall() {
      return toolName != null;
    }

    /** The same reply with its last character gone: no longer JSON. */
    Reply cut() {
      return new Reply(toolName, json.substring(0, Math.max(0, json.length() - 1)));
    }
  }

  private StructuredReplies() {}

  /** The reply a chat request's body asks for; empty for a plain text answer. */
  static Optional<Reply> of(JsonNode body) {
    JsonNode tools = body.path("tools");
    JsonNode choice = body.path("tool_choice");
    if (tools.isArray() && !tools.isEmpty() && !(choice.isTextual() && choice.asText().equals("none"))) {
      String wanted = choice.path("function").path("name").asText(null);
      JsonNode tool = tools.get(0);
      for (JsonNode t : tools) if (t.path("function").path("name").asText("").equals(wanted)) tool = t;
      JsonNode f = tool.path("function");
      JsonNode parameters = f.path("parameters");
      JsonNode arguments = parameters.isObject() ? instance(parameters, 0) : NODES.objectNode();
      if (!arguments.isObject()) arguments = NODES.objectNode();
      return Optional.of(new Reply(f.path("name").asText("tool"), write(arguments)));
    }
    JsonNode format = body.path("response_format");
    switch (format.path("type").asText("")) {
      case "json_object" -> {
        return Optional.of(new Reply(null, write(NODES.objectNode().put("answer", "The capital of France is Paris."))));
      }
      case "json_schema" -> {
        return Optional.of(new Reply(null, write(instance(format.path("json_schema").path("schema"), 0))));
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /** A value the schema accepts, for the schemas tools and answers use: types, properties, items, enum, const. */
  static JsonNode instance(JsonNode schema, int depth) {
    if (schema.has("const")) return schema.get("const");
    if (schema.path("enum").isArray() && !schema.get("enum").isEmpty()) return schema.get("enum").get(0);
    for (String any : new String[] {"anyOf", "oneOf", "allOf"}) {
      if (schema.path(any).isArray() && !schema.get(any).isEmpty()) return instance(schema.get(any).get(0), depth + 1);
    }
    JsonNode type = schema.path("type");
    String t = type.isArray() ? type.path(0).asText("object") : type.asText(schema.has("properties") ? "object" : "string");
    if (depth > 8) t = "null";
    switch (t) {
      case "object" -> {
        ObjectNode o = NODES.objectNode();
        schema.path("properties").fields().forEachRemaining(p -> o.set(p.getKey(), instance(p.getValue(), depth + 1)));
        return o;
      }
      case "array" -> {
        ArrayNode a = NODES.arrayNode();
        int n = Math.max(1, schema.path("minItems").asInt(1));
        for (int i = 0; i < n; i++) a.add(instance(schema.path("items"), depth + 1));
        return a;
      }
      case "integer" -> {
        return NODES.numberNode(Math.max(1, schema.path("minimum").asLong(1)));
      }
      case "number" -> {
        return NODES.numberNode(Math.max(1.5, schema.path("minimum").asDouble(1.5)));
      }
      case "boolean" -> {
        return NODES.booleanNode(true);
      }
      case "null" -> {
        return NODES.nullNode();
      }
      default -> {
        int min = schema.path("minLength").asInt(0);
        return NODES.textNode(min <= 5 ? "Paris" : "Paris".repeat(min / 5 + 1));
      }
    }
  }

  private static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
