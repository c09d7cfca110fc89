package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.OptionalInt;

/** Typed reads of one row's fields, each failing with the file, line and field and what would be accepted. */
@API(status = INTERNAL)
public final class JsonFields {

  private final Path file;
  private final long line;
  private final String expectedRow;

  public JsonFields(Path file, long line, String expectedRow) {
    this.file = file;
    this.line = line;
    this.expectedRow = expectedRow;
  }

  public BadInputException bad(String field, String problem, String expected) {
    return new BadInputException(file, line, field, problem, expected);
  }

  /** A required text field. */
  public String text(JsonNode row, String field, String path) {
    JsonNode n = row.get(field);
    if (n == null || n.isNull()) throw bad(path, "missing" + otherFormat(row), "a row like " + expectedRow);
    if (!n.isTextual()) throw bad(path, "is " + kind(n) + ", not a string", "a string");
    return n.asText();
  }

  /** An optional whole number of at least 1 (a length). */
  public OptionalInt positiveInt(JsonNode row, String field) {
    JsonNode n = row.get(field);
    if (n == null || n.isNull()) return OptionalInt.empty();
    if (!n.isIntegralNumber() && !(n.isNumber() && n.asDouble() == Math.rint(n.asDouble()))) {
      throw bad(field, "is " + kind(n) + (n.isNumber() ? " " + n : ""), "a whole number of at least 1");
    }
    long v = n.asLong();
    if (v < 1) throw bad(field, v + (v < 0 ? " is negative" : " is zero"), "a whole number of at least 1");
    if (v > Integer.MAX_VALUE) throw bad(field, v + " is too large", "a whole number up to " + Integer.MAX_VALUE);
    return OptionalInt.of((int) v);
  }

  /** An optional number of at least 0. */
  public Double notNegative(JsonNode row, String field) {
    JsonNode n = row.get(field);
    if (n == null || n.isNull()) return null;
    if (!n.isNumber()) throw bad(field, "is " + kind(n), "a number of at least 0");
    if (n.asDouble() < 0 || !Double.isFinite(n.asDouble())) throw bad(field, n + " is negative", "a number of at least 0");
    return n.asDouble();
  }

  /** An optional field of one JSON kind, as JSON text. */
  public String json(JsonNode row, String field, boolean array) {
    JsonNode n = row.get(field);
    if (n == null || n.isNull()) return null;
    if (array ? !n.isArray() : !n.isObject()) {
      throw bad(field, "is " + kind(n), array ? "a JSON array (e.g. [{\"type\": \"function\", ...}])" : "a JSON object");
    }
    return n.toString();
  }

  public static String kind(JsonNode n) {
    return switch (n.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      default -> n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /** When a row has another format's fields, says which format it looks like. */
  public static String otherFormat(JsonNode row) {
    if (!row.isObject()) return "";
    String fields = fieldNames(row);
    String looks = row.has("conversations") ? "ShareGPT (format SHAREGPT, a JSON array of them)"
        : row.has("messages") ? "OpenAI chat (format OPENAI_CHAT)"
        : row.has("prompt") ? "vLLM custom (format VLLM_CUSTOM)"
        : row.has("hash_ids") || row.has("input_length") ? "a Mooncake trace"
        : "";
    return " (the row has " + fields + (looks.isEmpty() ? "" : ": it looks like " + looks) + ")";
  }

  private static String fieldNames(JsonNode row) {
    StringBuilder s = new StringBuilder();
    Iterator<String> names = row.fieldNames();
    int n = 0;
    while (names.hasNext() && n < 6) {
      s.append(n++ == 0 ? "" : ", ").append('"').append(names.next()).append('"');
    }
    if (names.hasNext()) s.append(", ...");
    return n == 0 ? "no fields" : s.toString();
  }
}
