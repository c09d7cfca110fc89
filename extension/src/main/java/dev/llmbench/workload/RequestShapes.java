package dev.llmbench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.RequestExtras;
import dev.llmbench.internal.workload.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link ToolCalls}, {@link StructuredOutput} and {@link Embeddings} add to every request of a sweep, read and
 * checked before load: the tools file and the schema file must be JSON, every schema in them a JSON Schema, and so
 * must the {@code tools} and {@code response_format} of every dataset row the sweep sends.
 */
final class RequestShapes {

  private static final ObjectMapper JSON = new ObjectMapper();

  private RequestShapes() {}

  /**
   * What the annotations add to every request, checked.
   *
   * @throws IllegalArgumentException naming the annotation, file and field that is wrong, and the fix
   */
  static RequestExtras extras(PlanContext context) {
    Optional<ToolCalls> tools = context.nearest(ToolCalls.class);
    Optional<StructuredOutput> output = context.nearest(StructuredOutput.class);
    Optional<Embeddings> embeddings = context.nearest(Embeddings.class);
    Map<String, String> fields = new LinkedHashMap<>();
    tools.ifPresent(t -> {
      fields.put("tools", read("@ToolCalls 'file'", t.file()).toString());
      fields.put("tool_choice", choice(t.choice()));
    });
    output.ifPresent(o -> fields.put("response_format", responseFormat(o)));
    int batch = 0;
    if (embeddings.isPresent()) {
      batch = embeddings.get().batchSize();
      if (batch < 1) throw new IllegalArgumentException("@Embeddings 'batchSize' must be at least 1, was " + batch);
      if (!fields.isEmpty()) {
        throw new IllegalArgumentException("@Embeddings requests generate nothing to call tools with or to answer in JSON: "
            + "remove @ToolCalls and @StructuredOutput from this sweep, or @Embeddings");
      }
    }
    try {
      ReplyCheck.of(fields);
    } catch (ReplyCheck.UnknownToolChoiceException e) {
      throw new IllegalArgumentException("@ToolCalls file " + tools.orElseThrow().file() + ": " + e.getMessage()
          + "; set @ToolCalls(choice) to one of them, or to auto, required or none", e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException((tools.isPresent() ? "@ToolCalls file " + tools.get().file() : "@StructuredOutput")
          + ": " + e.getMessage() + "; fix the file so that every schema is a JSON Schema", e);
    }
    return fields.isEmpty() && batch == 0 ? RequestExtras.NONE : new RequestExtras(fields, batch);
  }

  /** Every distinct {@code tools}/{@code response_format} of the rows sent, as its requests will carry it, compiled once. */
  static void checkRows(List<LevelPlan> levels, Map<String, String> workload) {
    Set<Map<String, String>> seen = new HashSet<>();
    for (LevelPlan level : levels) {
      var dataset = level.workload().prompts().dataset();
      if (dataset.isEmpty()) continue;
      for (Row row : dataset.get().rows()) {
        if (row.bodyFields().isEmpty()) continue;
        Map<String, String> sent = new LinkedHashMap<>(row.bodyFields());
        workload.forEach((k, v) -> {
          if (!sent.containsKey(k) && !(k.equals("tool_choice") && sent.containsKey("tools"))) sent.put(k, v);
        });
        if (!seen.add(sent)) continue;
        try {
          ReplyCheck.of(sent);
        } catch (ReplyCheck.UnknownToolChoiceException e) {
          throw new IllegalArgumentException(dataset.get().name() + " line " + row.line() + ": " + e.getMessage()
              + "; name one of them in the row's tool_choice, or write auto, required or none", e);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(dataset.get().name() + " line " + row.line() + ": " + e.getMessage()
              + "; fix the row so that its schemas are JSON Schemas", e);
        }
      }
    }
  }

  private static JsonNode read(String what, String file) {
    Path path = Path.of(file);
    String text;
    try {
      text = Files.readString(path);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(what + ": " + file + ": no such file (a path relative to "
          + Path.of("").toAbsolutePath() + ", or absolute)", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(what + ": " + file + " cannot be read: " + e.getMessage(), e);
    }
    try {
      JsonNode node = JSON.readTree(text);
      if (node == null || node.isMissingNode()) throw new IllegalArgumentException(what + ": " + file + " is empty");
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(what + ": " + file + " is not JSON (line " + e.getLocation().getLineNr() + ", column "
          + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage() + "); write it as JSON, e.g. [{\"type\": \"function\", "
          + "\"function\": {\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\"}}}] for tools or "
          + "{\"type\": \"object\", \"properties\": {...}} for a schema", e);
    }
  }

  private static String choice(String choice) {
    return switch (choice) {
      case "auto", "required", "none" -> "\"" + choice + "\"";
      default -> {
        if (choice.isBlank()) throw new IllegalArgumentException("@ToolCalls 'choice' is blank; write auto, required, none or "
            + "a tool's name");
        ObjectNode named = JSON.createObjectNode().put("type", "function");
        named.putObject("function").put("name", choice);
        yield named.toString();
      }
    };
  }

  private static String responseFormat(StructuredOutput o) {
    if (o.schema().isBlank()) return "{\"type\":\"json_object\"}";
    ObjectNode format = JSON.createObjectNode().put("type", "json_schema");
    ObjectNode schema = format.putObject("json_schema").put("name", o.name());
    schema.set("schema", read("@StructuredOutput 'schema'", o.schema()));
    return format.toString();
  }
}
