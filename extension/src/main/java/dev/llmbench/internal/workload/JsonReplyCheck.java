package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.SpecVersionDetector;
import com.networknt.schema.ValidationMessage;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Whether a reply is JSON, and whether it matches a JSON Schema (networknt's validator; draft 2020-12 unless
 * the schema's {@code $schema} names another). A reply is read whole, surrounding white space allowed, or, as
 * chat models often write it, as the one fenced code block ({@code ```json ... ```}) it holds; trailing text
 * after the JSON value is a parse failure, as {@code json.loads} has it.
 */
@API(status = INTERNAL)
public final class JsonReplyCheck {

  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Pattern FENCE = Pattern.compile("^\\s*```[A-Za-z0-9_-]*\\s*\\n(.*?)\\n?\\s*```\\s*$", Pattern.DOTALL);

  private JsonReplyCheck() {}

  public enum Status {
    PARSED_OK, PARSE_FAILED, SCHEMA_MISMATCH
  }

  /**
   * @param value    the parsed value; empty when it did not parse
   * @param messages why it did not parse, or each way it misses the schema; empty when {@code PARSED_OK}
   */
  public record Result(Status status, Optional<JsonNode> value, List<String> messages) {
    public Result {
      messages = List.copyOf(messages);
    }

    public boolean ok() {
      return status == Status.PARSED_OK;
    }
  }

  /** Parses {@code reply} and, when {@code schema} is given, validates it. */
  public static Result check(String reply, Optional<JsonNode> schema) {
    return check(reply, schema.map(JsonReplyCheck::compile).orElse(null));
  }

  /** As {@link #check(String, Optional)}, with a schema compiled once by {@link #compile}. */
  public static Result check(String reply, JsonSchema schema) {
    String text = reply == null ? "" : reply.strip();
    Matcher fenced = FENCE.matcher(text);
    if (fenced.matches()) text = fenced.group(1).strip();
    if (text.isEmpty()) return new Result(Status.PARSE_FAILED, Optional.empty(), List.of("the reply is empty"));
    JsonNode value;
    try {
      value = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return new Result(Status.PARSE_FAILED, Optional.empty(), List.of("not JSON: " + e.getOriginalMessage()));
    }
    if (value == null || value.isMissingNode()) {
      return new Result(Status.PARSE_FAILED, Optional.empty(), List.of("not JSON: no value"));
    }
    if (schema == null) return new Result(Status.PARSED_OK, Optional.of(value), List.of());
    Set<ValidationMessage> problems = schema.validate(value);
    if (problems.isEmpty()) return new Result(Status.PARSED_OK, Optional.of(value), List.of());
    return new Result(Status.SCHEMA_MISMATCH, Optional.of(value), problems.stream().map(ValidationMessage::getMessage).sorted()
        .toList());
  }

  /**
   * The schema, compiled; call it before load to reject a schema that is not one.
   *
   * @throws IllegalArgumentException saying why the schema is unusable
   */
  public static JsonSchema compile(JsonNode schema) {
    if (!schema.isObject() && !schema.isBoolean()) {
      throw new IllegalArgumentException("a JSON Schema is an object (or true/false), not " + schema.getNodeType());
    }
    SpecVersion.VersionFlag version = SpecVersion.VersionFlag.V202012;
    if (schema.has("$schema")) {
      try {
        version = SpecVersionDetector.detect(schema);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("its $schema " + schema.get("$schema") + " is no JSON Schema draft this "
            + "validator knows (draft 4, 6, 7, 2019-09, 2020-12)", e);
      }
    }
    try {
      return JsonSchemaFactory.getInstance(version).getSchema(schema);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("it is not a usable JSON Schema: " + e.getMessage(), e);
    }
  }
}
