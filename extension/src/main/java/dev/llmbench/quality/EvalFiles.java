package dev.llmbench.quality;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.engine.sets.Prompts;
import dev.llmbench.internal.workload.BadInputException;
import dev.llmbench.internal.workload.JsonReplyCheck;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads eval files, JSON Lines of one of three shapes (docs/quality.md), and checks every row before any load:
 * a row that is not JSON, a missing question or answer, an answer its grader cannot read (a GSM8K answer
 * without {@code ####}, a choice index out of range), an unknown grader, a pattern or schema that does not
 * compile: each fails with the file, the line and the field ({@link BadInputException}).
 */
final class EvalFiles {

  /** The shapes of row; their names are those of {@code @QualityEval(format)}. */
  public enum Format {
    /** {@code {"question": "...", "answer": "... #### 42"}}, GSM8K's own files. */
    GSM8K("{\"question\": \"...\", \"answer\": \"... #### 42\"}"),
    /** {@code {"question": "...", "choices": ["...", ...], "answer": "B"}} (or the answer's 0-based index). */
    MULTIPLE_CHOICE("{\"question\": \"...\", \"choices\": [\"...\", \"...\"], \"answer\": \"B\"}"),
    /** {@code {"prompt": "..." or "messages": [...], "expected": ..., "grader": "exact"}}, any grader. */
    GENERIC("{\"prompt\": \"...\", \"expected\": \"...\", \"grader\": \"exact\"}");

    final String shape;

    Format(String shape) {
      this.shape = shape;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern GSM8K_ANSWER = Pattern.compile("####\\s*(\\S+)\\s*$");

  private EvalFiles() {}

  /**
   * Every row of {@code file}, or the first {@code limit} (0: all).
   *
   * @param tolerance how far a number may be from the expected one and still be right, where a row gives none
   * @throws BadInputException naming the file, line and field of the first bad row
   */
  public static EvalSet read(Path file, Format format, int limit, double tolerance) {
    List<EvalItem> items = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String text;
      long line = 0;
      while ((text = in.readLine()) != null && (limit == 0 || items.size() < limit)) {
        line++;
        String stripped = text.strip();
        if (stripped.isEmpty()) continue;
        JsonNode row;
        try {
          row = JSON.readTree(stripped);
        } catch (JsonProcessingException e) {
          throw new BadInputException(file, line, "", "not JSON (" + BadInputException.jsonProblem(e) + ")",
              "one JSON object per line, like " + format.shape, e);
        }
        if (!row.isObject()) {
          throw new BadInputException(file, line, "", "is " + kind(row) + ", not a JSON object", "one JSON object per line, "
              + "like " + format.shape);
        }
        Row r = new Row(file, line, row, format);
        EvalItem item = switch (format) {
          case GSM8K -> gsm8k(r, tolerance);
          case MULTIPLE_CHOICE -> multipleChoice(r);
          case GENERIC -> generic(r, tolerance);
        };
        if (!ids.add(item.id())) throw r.bad("id", "\"" + item.id() + "\" is the id of an earlier row", "ids unique in the file");
        items.add(item);
      }
    } catch (NoSuchFileException e) {
      throw new BadInputException(file.toAbsolutePath(), 0, "", "no such file", "a JSON Lines eval file");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read eval file " + file.toAbsolutePath(), e);
    }
    if (items.isEmpty()) throw new BadInputException(file, 0, "", "holds no rows", "one JSON object per line, like " + format.shape);
    return new EvalSet(format.name().toLowerCase(Locale.ROOT).replace('_', '-') + ":" + file.getFileName(), items);
  }

  private static EvalItem gsm8k(Row r, double tolerance) {
    String question = r.text("question");
    String answer = r.text("answer");
    Matcher m = GSM8K_ANSWER.matcher(answer);
    if (!m.find()) {
      throw r.bad("answer", "has no final answer after '#### '", "GSM8K's form, the working then \"#### 42\" at the end");
    }
    BigDecimal value = LastNumberParse.of(m.group(1)).orElseThrow(() -> r.bad("answer", "'#### " + m.group(1)
        + "' is not a number", "a number after '#### ', e.g. #### 1,234 or #### -2.5"));
    return new EvalItem(r.id(), List.of(ChatMessage.user(Prompts.gsm8k(question))), new Grader.LastNumber(value, tolerance));
  }

  private static EvalItem multipleChoice(Row r) {
    String question = r.text("question");
    JsonNode choices = r.node.get("choices");
    if (choices == null || choices.isNull()) throw r.bad("choices", "missing", "an array of the options, e.g. " + r.format.shape);
    if (!choices.isArray()) throw r.bad("choices", "is " + kind(choices) + ", not an array", "an array of the options' texts");
    if (choices.size() < 2 || choices.size() > 26) {
      throw r.bad("choices", "has " + choices.size() + " option" + (choices.size() == 1 ? "" : "s"), "2 to 26 options");
    }
    List<String> options = new ArrayList<>();
    for (int i = 0; i < choices.size(); i++) {
      JsonNode c = choices.get(i);
      if (!c.isTextual() && !c.isNumber()) throw r.bad("choices[" + i + "]", "is " + kind(c), "a string");
      options.add(c.asText());
    }
    int index = choiceIndex(r, "answer", choices.size());
    return new EvalItem(r.id(), List.of(ChatMessage.user(Prompts.multipleChoice(question, options))),
        new Grader.Choice(Prompts.letter(index), options.size()));
  }

  /** A letter ({@code "B"}) or a 0-based index ({@code 1}) among {@code n} options. */
  private static int choiceIndex(Row r, String field, int n) {
    JsonNode a = r.node.get(field);
    String range = "a letter A to " + Prompts.letter(n - 1) + " or an index 0 to " + (n - 1);
    if (a == null || a.isNull()) throw r.bad(field, "missing", range);
    int index;
    if (a.isIntegralNumber()) {
      index = a.asInt();
      if (index < 0 || index >= n) throw r.bad(field, "index " + a + " is out of range for " + n + " choices", range);
    } else if (a.isTextual() && a.asText().strip().matches("[A-Za-z]")) {
      index = Character.toUpperCase(a.asText().strip().charAt(0)) - 'A';
      if (index >= n) throw r.bad(field, "letter " + a.asText().strip() + " is out of range for " + n + " choices", range);
    } else {
      throw r.bad(field, (a.isTextual() ? "\"" + a.asText() + "\"" : kind(a)) + " is no choice", range);
    }
    return index;
  }

  private static EvalItem generic(Row r, double tolerance) {
    List<ChatMessage> messages = r.messages();
    JsonNode g = r.node.get("grader");
    if (g == null || g.isNull()) throw r.bad("grader", "missing", "one of " + String.join(", ", Grader.NAMES));
    if (!g.isTextual()) throw r.bad("grader", "is " + kind(g) + ", not a string", "one of " + String.join(", ", Grader.NAMES));
    String name = g.asText().strip().toLowerCase(Locale.ROOT);
    Grader grader = switch (name) {
      case "exact" -> new Grader.Exact(r.text("expected"));
      case "contains" -> new Grader.Contains(r.text("expected"));
      case "number" -> {
        JsonNode e = r.node.get("expected");
        if (e == null || e.isNull()) throw r.bad("expected", "missing", "the expected number, e.g. 42 or \"1,234\"");
        Optional<BigDecimal> v = e.isNumber() ? Optional.of(e.decimalValue()) : e.isTextual() ? LastNumberParse.of(e.asText())
            : Optional.empty();
        BigDecimal value = v.orElseThrow(() -> r.bad("expected", (e.isTextual() ? "\"" + e.asText() + "\"" : kind(e))
            + " is not a number", "a number, e.g. 42 or \"1,234\""));
        yield new Grader.LastNumber(value, r.tolerance(tolerance));
      }
      case "choice" -> {
        JsonNode c = r.node.get("choices");
        int n = c == null || c.isNull() ? 26 : c.isArray() ? c.size() : c.isIntegralNumber() ? c.asInt() : -1;
        if (n < 2 || n > 26) throw r.bad("choices", "is " + (c != null && c.isArray() ? c.size() + " options" : c), "the "
            + "options (an array) or their number, 2 to 26");
        yield new Grader.Choice(Prompts.letter(choiceIndex(r, "expected", n)), n);
      }
      case "regex" -> {
        String pattern = r.text("pattern");
        Pattern p;
        try {
          p = Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
          throw r.bad("pattern", "does not compile: " + e.getDescription(), "a Java regular expression");
        }
        yield new Grader.Regex(p, r.optionalText("expected"));
      }
      case "json" -> {
        JsonNode schema = r.node.get("schema");
        Optional<JsonNode> schemaNode = schema == null || schema.isNull() ? Optional.empty() : Optional.of(schema);
        Optional<com.networknt.schema.JsonSchema> compiled;
        try {
          compiled = schemaNode.map(JsonReplyCheck::compile);
        } catch (IllegalArgumentException e) {
          throw r.bad("schema", e.getMessage(), "a JSON Schema object, e.g. {\"type\": \"object\", \"required\": [\"name\"]}");
        }
        JsonNode e = r.node.get("expected");
        Optional<JsonNode> value = Optional.empty();
        if (e != null && !e.isNull()) {
          if (e.isTextual()) {
            try {
              value = Optional.of(JSON.readTree(e.asText()));
            } catch (JsonProcessingException x) {
              throw r.bad("expected", "the text is not JSON (" + BadInputException.jsonProblem(x) + ")", "the expected JSON value, "
                  + "inline or as text");
            }
          } else {
            value = Optional.of(e);
          }
        }
        yield new Grader.Json(value, schemaNode, compiled);
      }
      default -> throw r.bad("grader", "\"" + g.asText() + "\" is no grader", "one of " + String.join(", ", Grader.NAMES));
    };
    return new EvalItem(r.id(), messages, grader);
  }

  /** Numbers as eval files write them: {@code 1,234}, {@code -2.5}, {@code $18}. */
  static final class LastNumberParse {
    private LastNumberParse() {}

    static Optional<BigDecimal> of(String text) {
      return Grader.LastNumber.parse(text.strip().replaceFirst("^\\$", "").replaceFirst("\\.$", ""));
    }
  }

  static String kind(JsonNode n) {
    return switch (n.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }

  /** One row and where it is, for typed reads that fail naming the file, line and field. */
  private record Row(Path file, long line, JsonNode node, Format format) {
    BadInputException bad(String field, String problem, String expected) {
      return new BadInputException(file, line, field, problem, expected);
    }

    String text(String field) {
      JsonNode n = node.get(field);
      if (n == null || n.isNull()) throw bad(field, "missing", "a row like " + format.shape);
      if (!n.isTextual() && !n.isNumber()) throw bad(field, "is " + kind(n) + ", not a string", "a string");
      if (n.asText().isBlank()) throw bad(field, "is empty", "a non-empty string");
      return n.asText();
    }

    Optional<String> optionalText(String field) {
      JsonNode n = node.get(field);
      return n == null || n.isNull() ? Optional.empty() : Optional.of(text(field));
    }

    double tolerance(double fallback) {
      JsonNode n = node.get("tolerance");
      if (n == null || n.isNull()) return fallback;
      if (!n.isNumber() || n.asDouble() < 0) throw bad("tolerance", "is " + n, "a number of at least 0");
      return n.asDouble();
    }

    String id() {
      JsonNode n = node.get("id");
      if (n == null || n.isNull()) return file.getFileName() + ":" + line;
      if (!n.isTextual() && !n.isIntegralNumber()) throw bad("id", "is " + kind(n), "a string or a whole number");
      return n.asText();
    }

    List<ChatMessage> messages() {
      JsonNode p = node.get("prompt");
      JsonNode ms = node.get("messages");
      if (p != null && !p.isNull() && ms != null && !ms.isNull()) {
        throw bad("messages", "given beside \"prompt\"", "one of \"prompt\" (a string) and \"messages\" (an array)");
      }
      if (p != null && !p.isNull()) return List.of(ChatMessage.user(text("prompt")));
      if (ms == null || ms.isNull()) throw bad("prompt", "missing (and no \"messages\")", "a row like " + format.shape);
      if (!ms.isArray() || ms.isEmpty()) throw bad("messages", ms.isArray() ? "is empty" : "is " + kind(ms), "a non-empty "
          + "array of {\"role\": \"user\", \"content\": \"...\"}");
      List<ChatMessage> out = new ArrayList<>();
      for (int i = 0; i < ms.size(); i++) {
        JsonNode m = ms.get(i);
        JsonNode content = m.get("content");
        if (!m.isObject() || content == null || !content.isTextual()) {
          throw bad("messages[" + i + "].content", "missing or not a string", "{\"role\": \"user\", \"content\": \"...\"}");
        }
        out.add(new ChatMessage(m.path("role").asText("user"), content.asText()));
      }
      return out;
    }
  }
}
