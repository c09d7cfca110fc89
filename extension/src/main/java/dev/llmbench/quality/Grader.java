package dev.llmbench.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import dev.llmbench.internal.workload.JsonReplyCheck;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How one item's reply is graded, with the item's expected answer. Every grader counts a blank reply as
 * unparsed; docs/quality.md gives each one's rules and where they come from.
 */
sealed interface Grader {

  /** The names a generic row gives its grader, in the order docs/quality.md lists them. */
  List<String> NAMES = List.of("exact", "number", "choice", "regex", "contains", "json");

  Graded grade(String reply);

  /** The row's grader name: {@code exact}, {@code number}, ... */
  String name();

  /** The expected answer as the report shows it. */
  String expected();

  /**
   * SQuAD's {@code normalize_answer}: lower case, punctuation removed, the articles a, an and the removed, white
   * space collapsed; NFKC first, so that a full-width letter equals its ASCII one.
   */
  static String normalise(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    s = s.replaceAll("\\p{P}|\\p{S}", "");
    s = s.replaceAll("\\b(a|an|the)\\b", " ");
    return s.trim().replaceAll("\\s+", " ");
  }

  /** Normalised exact match: {@code "Paris."} is {@code paris}. */
  record Exact(String expected) implements Grader {
    @Override
    public Graded grade(String reply) {
      if (reply.isBlank()) return Graded.unparsed("empty reply");
      String got = normalise(reply);
      return got.equals(normalise(expected)) ? Graded.correct(got) : Graded.wrong(got);
    }

    @Override
    public String name() {
      return "exact";
    }
  }

  /** The normalised expected text occurs in the normalised reply. */
  record Contains(String expected) implements Grader {
    @Override
    public Graded grade(String reply) {
      if (reply.isBlank()) return Graded.unparsed("empty reply");
      String got = normalise(reply);
      String want = normalise(expected);
      return (" " + got + " ").contains(" " + want + " ") ? Graded.correct(want) : Graded.wrong(clip(got));
    }

    @Override
    public String name() {
      return "contains";
    }
  }

  /**
   * The answer after the last {@code ####} (GSM8K's marker), else the last number in the reply (lm-eval's
   * {@code strict-match} and {@code flexible-extract}); thousands separators ignored; right within
   * {@code tolerance}.
   */
  record LastNumber(BigDecimal value, double tolerance) implements Grader {
    static final Pattern NUMBER = Pattern.compile("-?\\d[\\d,]*(?:\\.\\d+)?");
    private static final Pattern MARKED = Pattern.compile("####\\s*\\$?\\s*(-?\\d[\\d,]*(?:\\.\\d+)?)");

    /** The number in {@code text}, or empty: {@code 1,234.5} is 1234.5. */
    static Optional<BigDecimal> parse(String text) {
      String t = text.strip().replace(",", "");
      if (!t.matches("-?\\d+(?:\\.\\d+)?")) return Optional.empty();
      return Optional.of(new BigDecimal(t));
    }

    @Override
    public Graded grade(String reply) {
      String found = null;
      Matcher marked = MARKED.matcher(reply);
      while (marked.find()) found = marked.group(1);
      if (found == null) {
        Matcher m = NUMBER.matcher(reply);
        while (m.find()) found = m.group();
      }
      if (found == null) return Graded.unparsed("no number");
      BigDecimal got = new BigDecimal(found.replace(",", ""));
      boolean right = got.subtract(value).abs().doubleValue() <= tolerance;
      return right ? Graded.correct(got.toPlainString()) : Graded.wrong(got.toPlainString());
    }

    @Override
    public String name() {
      return "number";
    }

    @Override
    public String expected() {
      return value.toPlainString();
    }
  }

  /**
   * A letter among the first {@code choices}: after "answer is" or "Answer:" (the last such), else a reply
   * that is only the letter ({@code B}, {@code (B)}, {@code B.}) or starts with it as an option ({@code B) 56}).
   * Lower-case letters are never read as choices, so that the article "a" is not an answer.
   */
  record Choice(String letter, int choices) implements Grader {
    private static final Pattern STATED = Pattern.compile("(?i:answer)\\s*(?:(?i:is)\\s*)?[:\\uFF1A]?\\s*\\(?([A-Z])\\)?(?![A-Za-z])");
    private static final Pattern ALONE = Pattern.compile("^\\(?([A-Z])(?:\\)|\\.|:)?$");
    private static final Pattern LEADING = Pattern.compile("^\\(?([A-Z])[).:](?:\\s|$)");

    @Override
    public Graded grade(String reply) {
      String text = reply.strip();
      String found = null;
      Matcher m = STATED.matcher(text);
      while (m.find()) found = m.group(1);
      if (found == null) {
        Matcher alone = ALONE.matcher(text);
        Matcher leading = LEADING.matcher(text);
        if (alone.matches()) found = alone.group(1);
        else if (leading.find()) found = leading.group(1);
      }
      if (found == null) return Graded.unparsed("no choice letter");
      if (found.charAt(0) - 'A' >= choices) return Graded.unparsed("letter " + found + " is not one of the " + choices + " choices");
      return found.equals(letter) ? Graded.correct(found) : Graded.wrong(found);
    }

    @Override
    public String name() {
      return "choice";
    }

    @Override
    public String expected() {
      return letter;
    }
  }

  /**
   * A regular expression: with an expected answer it extracts (group 1, else the whole match; the first match)
   * and compares normalised, no match being unparsed; without one, a match is right and none wrong.
   */
  record Regex(Pattern pattern, Optional<String> answer) implements Grader {
    @Override
    public Graded grade(String reply) {
      if (reply.isBlank()) return Graded.unparsed("empty reply");
      Matcher m = pattern.matcher(reply);
      if (answer.isEmpty()) return m.find() ? Graded.correct(clip(m.group())) : Graded.wrong("no match of " + pattern);
      if (!m.find()) return Graded.unparsed("no match of " + pattern);
      String got = m.groupCount() >= 1 && m.group(1) != null ? m.group(1) : m.group();
      return normalise(got).equals(normalise(answer.get())) ? Graded.correct(clip(got)) : Graded.wrong(clip(got));
    }

    @Override
    public String name() {
      return "regex";
    }

    @Override
    public String expected() {
      return answer.orElse("a match of " + pattern);
    }
  }

  /**
   * Parses as JSON ({@link JsonReplyCheck}): a reply that does not is unparsed; one that misses the schema is
   * wrong; with an expected value, equal as JSON (numbers by value) is right.
   */
  record Json(Optional<JsonNode> value, Optional<JsonNode> schemaText, Optional<JsonSchema> schema) implements Grader {
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> a.equals(b) ? 0
        : a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;

    @Override
    public Graded grade(String reply) {
      JsonReplyCheck.Result r = JsonReplyCheck.check(reply, schema.orElse(null));
      return switch (r.status()) {
        case PARSE_FAILED -> Graded.unparsed(String.join("; ", r.messages()));
        case SCHEMA_MISMATCH -> Graded.wrong("misses the schema: " + String.join("; ", r.messages()));
        case PARSED_OK -> value.isEmpty() || value.get().equals(BY_VALUE, r.value().orElseThrow())
            ? Graded.correct(clip(r.value().orElseThrow().toString())) : Graded.wrong(clip(r.value().orElseThrow().toString()));
      };
    }

    @Override
    public String name() {
      return "json";
    }

    @Override
    public String expected() {
      return value.map(JsonNode::toString).orElse(schemaText.isPresent() ? "JSON matching the schema" : "JSON");
    }
  }

  /** Answers in reports stay short. */
  static String clip(String s) {
    String one = s.strip().replaceAll("\\s+", " ");
    return one.length() <= 80 ? one : one.substring(0, 77) + "...";
  }
}
