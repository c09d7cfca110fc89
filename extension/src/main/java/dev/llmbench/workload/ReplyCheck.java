package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.SpecVersionDetector;
import com.networknt.schema.ValidationMessage;
import java.util.Set;
import dev.llmbench.internal.client.RequestTrace;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
import dev.llmbench.internal.workload.JsonReplyCheck;

/**
 * What a request's {@code tools}, {@code tool_choice} and {@code response_format} ask of its reply, and whether
 * the reply gives it: each tool call's arguments parse as a JSON object and match its tool's {@code parameters}
 * schema; an answer under {@code response_format} {@code json_object} or {@code json_schema} parses, and matches
 * the schema when one is given. A reply that does not is unparsed, as AIPerf's tool-calling accuracy counts it.
 * A reply of a request with tools that calls none is checked only when {@code tool_choice} requires a call
 * ({@code "required"} or a named function): otherwise answering in text is the model's right.
 *
 * @param tools        each tool's compiled parameters schema by name (null: any object)
 * @param callRequired whether {@code tool_choice} requires a tool call
 * @param answerJson   whether the text answer must be JSON ({@code response_format} other than text)
 * @param answerSchema the answer's schema, or null
 */
@API(status = INTERNAL)
public record ReplyCheck(Map<String, JsonSchema> tools, boolean callRequired, boolean answerJson, JsonSchema answerSchema) {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Nothing to check: a request without tools or a JSON response format. */
  public static final ReplyCheck NONE = new ReplyCheck(Map.of(), false, false, null);

  /**
   * The tools kept by name, in their order.
   *
   * @param tools        each tool's compiled parameters schema by name (null: any object)
   * @param callRequired whether {@code tool_choice} requires a tool call
   * @param answerJson   whether the text answer must be JSON
   * @param answerSchema the answer's schema, or null
   */
  public ReplyCheck {
    tools = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tools));
  }

  /**
   * Whether the check judges any reply at all.
   *
   * @return whether it does
   */
  public boolean checks() {
    return !tools.isEmpty() || answerJson;
  }

  /**
   * The check a request's body fields ask for ({@code tools}, {@code tool_choice}, {@code response_format}, each a
   * JSON value as text).
   *
   * @param bodyFields the request's body fields by name
   * @return the check
   * @throws IllegalArgumentException naming the field, when a field is not JSON, not of its shape, or a schema in it
   *                                  is not a usable JSON Schema
   */
  public static ReplyCheck of(Map<String, String> bodyFields) {
    String toolsText = bodyFields.get("tools");
    String formatText = bodyFields.get("response_format");
    if (toolsText == null && formatText == null) return NONE;
    Map<String, JsonSchema> tools = new LinkedHashMap<>();
    boolean required = false;
    if (toolsText != null) {
      JsonNode list = parse("tools", toolsText);
      if (!list.isArray() || list.isEmpty()) {
        throw new IllegalArgumentException("\"tools\" is " + (list.isArray() ? "an empty array" : "not an array")
            + "; expected [{\"type\": \"function\", \"function\": {\"name\": \"...\", \"parameters\": {...}}}]");
      }
      for (int i = 0; i < list.size(); i++) {
        JsonNode f = list.get(i).path("function");
        String at = "tools[" + i + "]";
        if (!f.path("name").isTextual() || f.get("name").asText().isBlank()) {
          throw new IllegalArgumentException(at + ".function.name is missing; expected {\"type\": \"function\", \"function\": "
              + "{\"name\": \"...\", \"parameters\": {...}}}");
        }
        JsonNode parameters = f.get("parameters");
        JsonSchema schema = null;
        if (parameters != null && !parameters.isNull()) {
          try {
            schema = compile(parameters);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ".function.parameters (tool '" + f.get("name").asText() + "'): "
                + e.getMessage(), e);
          }
        }
        tools.put(f.get("name").asText(), schema);
      }
      String choiceText = bodyFields.get("tool_choice");
      if (choiceText != null) {
        JsonNode choice = parse("tool_choice", choiceText);
        if (choice.isTextual() && choice.asText().equals("none")) tools.clear();
        required = choice.isObject() || choice.isTextual() && choice.asText().equals("required");
        String named = choice.path("function").path("name").asText(null);
        if (choice.isObject() && !tools.containsKey(named)) {
          throw new UnknownToolChoiceException("\"tool_choice\" names " + (named == null ? "no function" : "'" + named + "'")
              + ", which is none of the tools (" + String.join(", ", tools.keySet()) + ")");
        }
      }
    }
    boolean answerJson = false;
    JsonSchema answerSchema = null;
    if (formatText != null) {
      JsonNode format = parse("response_format", formatText);
      String type = format.path("type").asText("");
      switch (type) {
        case "text" -> { }
        case "json_object" -> answerJson = true;
        case "json_schema" -> {
          answerJson = true;
          JsonNode schema = format.path("json_schema").path("schema");
          if (schema.isMissingNode()) {
            throw new IllegalArgumentException("\"response_format\" json_schema has no \"schema\"; expected {\"type\": "
                + "\"json_schema\", \"json_schema\": {\"name\": \"...\", \"schema\": {...}}}");
          }
          try {
            answerSchema = compile(schema);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"response_format\".json_schema.schema: " + e.getMessage(), e);
          }
        }
        default -> throw new IllegalArgumentException("\"response_format\" type '" + type + "' is none of text, json_object, "
            + "json_schema");
      }
    }
    return new ReplyCheck(tools, required, answerJson, answerSchema);
  }

  /**
   * A schema checked against its draft's meta-schema first (networknt compiles a schema with {@code "type": "objekt"}
   * without a word, and then validates nothing), then compiled.
   */
  static JsonSchema compile(JsonNode schema) {
    if (schema.isObject()) {
      SpecVersion.VersionFlag version = SpecVersion.VersionFlag.V202012;
      if (schema.has("$schema")) {
        try {
          version = SpecVersionDetector.detect(schema);
        } catch (RuntimeException e) {
          version = null; // JsonReplyCheck.compile says what is wrong with it
        }
      }
      if (version != null) {
        Set<ValidationMessage> problems = META.computeIfAbsent(version, v -> JsonSchemaFactory.getInstance(v)
            .getSchema(SchemaLocation.of(v.getId()))).validate(schema);
        if (!problems.isEmpty()) {
          throw new IllegalArgumentException("it is not a JSON Schema: " + problems.stream().map(ValidationMessage::getMessage)
              .sorted().collect(java.util.stream.Collectors.joining("; ")));
        }
      }
    }
    return JsonReplyCheck.compile(schema);
  }

  private static final Map<SpecVersion.VersionFlag, JsonSchema> META = new ConcurrentHashMap<>();

  private static JsonNode parse(String field, String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("\"" + field + "\" is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The trace judged: parsed, or unparsed with the first reason. A failed request, or a reply this check has nothing to
   * say about, comes back as it was.
   *
   * @param t the request's trace
   * @return the trace judged
   */
  public RequestTrace judge(RequestTrace t) {
    if (!t.succeeded() || !checks()) return t;
    if (!t.toolCalls().isEmpty() && !tools.isEmpty()) {
      if (!t.toolCallsComplete()) return t; // cut by the capture: nothing honest to say
      for (RequestTrace.ToolCall call : t.toolCalls()) {
        Optional<String> problem = problem(call);
        if (problem.isPresent()) return t.withReplyCheck(false, problem.get());
      }
      return t.withReplyCheck(true, null);
    }
    if (!tools.isEmpty() && callRequired) return t.withReplyCheck(false, "no tool call, though tool_choice requires one");
    if (!answerJson) return t;
    if (!t.textComplete()) return t;
    JsonReplyCheck.Result r = JsonReplyCheck.check(t.content(), answerSchema);
    if (r.ok()) return t.withReplyCheck(true, null);
    return t.withReplyCheck(false, (r.status() == JsonReplyCheck.Status.PARSE_FAILED ? "the answer is " : "the answer misses "
        + "its schema: ") + plain(r.messages()));
  }

  /** Jackson's message without where it was read ({@code (start marker at [Source: REDACTED ...])}): the same fault reads alike. */
  static String plain(List<String> messages) {
    return messages.stream().map(m -> {
      int cut = m.indexOf(" (start marker at");
      int nl = m.indexOf('\n');
      int end = cut < 0 ? nl : nl < 0 ? cut : Math.min(cut, nl);
      return end < 0 ? m : m.substring(0, end);
    }).collect(java.util.stream.Collectors.joining("; "));
  }

  private Optional<String> problem(RequestTrace.ToolCall call) {
    if (!tools.containsKey(call.name())) {
      return Optional.of("tool call '" + call.name() + "' names no tool of the request (" + String.join(", ", tools.keySet())
          + ")");
    }
    JsonReplyCheck.Result r = JsonReplyCheck.check(call.arguments(), tools.get(call.name()));
    if (r.status() == JsonReplyCheck.Status.PARSE_FAILED) {
      return Optional.of("tool call '" + call.name() + "': its arguments are " + plain(r.messages()));
    }
    if (!r.value().orElseThrow().isObject()) {
      return Optional.of("tool call '" + call.name() + "': its arguments are " + r.value().get().getNodeType()
          + ", not a JSON object");
    }
    if (r.status() == JsonReplyCheck.Status.SCHEMA_MISMATCH) {
      return Optional.of("tool call '" + call.name() + "': its arguments miss the tool's parameters: "
          + String.join("; ", r.messages()));
    }
    return Optional.empty();
  }

  /** Checks made once per distinct set of body fields: a level's rows mostly share a few. */
  static final class Cache {
    private final Map<Map<String, String>, ReplyCheck> checks = new ConcurrentHashMap<>();

    public ReplyCheck of(Map<String, String> bodyFields) {
      if (!bodyFields.containsKey("tools") && !bodyFields.containsKey("response_format")) return NONE;
      return checks.computeIfAbsent(bodyFields, ReplyCheck::of);
    }
  }

  /** A {@code tool_choice} that names no tool of the request: the fix is the choice, not a schema. */
  @API(status = INTERNAL)
  public static final class UnknownToolChoiceException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnknownToolChoiceException(String message) {
      super(message);
    }
  }
}
