package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.engine.sets.GeneratedItem;
import dev.llmbench.engine.sets.GeneratedSets;
import dev.llmbench.internal.workload.JsonReplyCheck;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/** The generated sets as eval sets: each item graded as a generic row with its grader name would be. */
final class GeneratedEvals {

  private static final ObjectMapper JSON = new ObjectMapper();

  private GeneratedEvals() {}

  public static EvalSet set(GeneratedSets.Kind kind, int count, double tolerance) {
    return new EvalSet("generated:" + kind.label(), GeneratedSets.items(kind, count).stream()
        .map(i -> item(i, tolerance)).toList());
  }

  static EvalItem item(GeneratedItem g, double tolerance) {
    Grader grader = switch (g.grader()) {
      case "number" -> new Grader.LastNumber(new BigDecimal(g.expected()), tolerance);
      case "choice" -> new Grader.Choice(g.expected(), g.choices().size());
      case "exact" -> new Grader.Exact(g.expected());
      case "contains" -> new Grader.Contains(g.expected());
      case "regex" -> new Grader.Regex(Pattern.compile(g.pattern().orElseThrow()), Optional.of(g.expected()));
      case "json" -> {
        Optional<JsonNode> schema = g.schema().map(GeneratedEvals::parse);
        yield new Grader.Json(Optional.of(parse(g.expected())), schema, schema.map(JsonReplyCheck::compile));
      }
      default -> throw new IllegalStateException("no grader " + g.grader());
    };
    return new EvalItem(g.id(), List.of(ChatMessage.user(g.prompt())), grader);
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a generated item's JSON does not parse: " + text, e);
    }
  }
}
