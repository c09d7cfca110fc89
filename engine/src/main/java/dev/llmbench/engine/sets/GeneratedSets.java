package dev.llmbench.engine.sets;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.LocalDate;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * The generated eval sets. Every item is computed from its kind and index alone (a SplitMix stream seeded by
 * both), so that {@code items(ARITHMETIC, 200)} is the same 200 questions on every machine, and its answers
 * are computed, never copied from a published benchmark.
 */
@API(status = INTERNAL)
public final class GeneratedSets {

  /** The most items of one kind a set has; the embedded engine recognises exactly these. */
  public static final int MAX_ITEMS = 2000;

  /** The kinds of set; {@code MIXED} interleaves an item of every grader. */
  public enum Kind {
    ARITHMETIC("arithmetic"), CHOICE("multiple-choice"), EXACT("exact-match"), MIXED("every-grader");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The set's name in the reports, as the user wrote it: {@code EVERY_GRADER} is every-grader. */
    public String label() {
      return label;
    }
  }

  private static final String[] NAMES = {"Ada", "Bruno", "Chen", "Dara", "Eli", "Femi", "Greta", "Hiro", "Ines", "Jonas",
      "Kira", "Luca", "Maya", "Nils", "Omar", "Priya"};
  private static final String[] THINGS = {"apples", "pencils", "stamps", "marbles", "books", "shells", "cards", "buttons"};
  private static final String[] WORDS = {"planet", "garden", "window", "silver", "rocket", "button", "candle", "forest",
      "marble", "pencil", "bridge", "yellow", "harbor", "jungle", "meadow", "copper", "lantern", "tunnel", "violet", "walnut"};
  private static final String[] ONES = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
      "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
  private static final String[] TENS = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};

  private static final String JSON_SCHEMA = "{\"type\":\"object\",\"required\":[\"item\",\"count\"],"
      + "\"properties\":{\"item\":{\"type\":\"string\"},\"count\":{\"type\":\"integer\"}}}";

  private GeneratedSets() {}

  /** The first {@code count} items of {@code kind}. */
  public static List<GeneratedItem> items(Kind kind, int count) {
    if (count < 1 || count > MAX_ITEMS) {
      throw new IllegalArgumentException("a generated set has 1 to " + MAX_ITEMS + " items, not " + count);
    }
    List<GeneratedItem> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) items.add(item(kind, i));
    return items;
  }

  public static GeneratedItem item(Kind kind, int index) {
    return switch (kind) {
      case ARITHMETIC -> arithmetic(index);
      case CHOICE -> choice(index);
      case EXACT -> exact(index);
      case MIXED -> MIXED.get(index % MIXED.size()).apply(index / MIXED.size());
    };
  }

  /** Each grader's generator, in the order {@code MIXED} interleaves them. */
  private static final List<IntFunction<GeneratedItem>> MIXED = List.of(GeneratedSets::arithmetic, GeneratedSets::choice,
      GeneratedSets::exact, GeneratedSets::regex, GeneratedSets::contains, GeneratedSets::json);

  /**
   * The generated item whose prompt is exactly {@code prompt}, among the first {@link #MAX_ITEMS} of every
   * generator; empty for any other text.
   */
  public static Optional<GeneratedItem> byPrompt(String prompt) {
    return Optional.ofNullable(Table.BY_PROMPT.get(prompt));
  }

  /** Built on first use (a few milliseconds), then read only. */
  private static final class Table {
    static final Map<String, GeneratedItem> BY_PROMPT = build();

    private static Map<String, GeneratedItem> build() {
      Map<String, GeneratedItem> table = new HashMap<>();
      for (IntFunction<GeneratedItem> g : MIXED) {
        for (int i = 0; i < MAX_ITEMS; i++) {
          GeneratedItem item = g.apply(i);
          table.putIfAbsent(item.prompt(), item);
        }
      }
      return Map.copyOf(table);
    }
  }

  private static SplittableRandom random(String kind, int index) {
    return new SplittableRandom(kind.hashCode() * 0x9E3779B97F4A7C15L + index);
  }

  private static String pick(SplittableRandom r, String[] from) {
    return from[r.nextInt(from.length)];
  }

  /** A wrong number near the right one: what a model that slipped in one step says. */
  private static long near(SplittableRandom r, long answer) {
    long delta = 1 + r.nextInt(9);
    return r.nextBoolean() || answer - delta < 0 ? answer + delta : answer - delta;
  }

  static GeneratedItem arithmetic(int index) {
    SplittableRandom r = random("arithmetic", index);
    String name = pick(r, NAMES);
    String thing = pick(r, THINGS);
    int a = 2 + r.nextInt(40);
    int b = 2 + r.nextInt(20);
    String question;
    String work;
    long answer;
    switch (index % 4) {
      case 0 -> {
        int c = 1 + r.nextInt(a * b - 1);
        answer = (long) a * b - c;
        question = name + " has " + a + " boxes of " + b + " " + thing + " and gives away " + c + " " + thing + ". How many "
            + thing + " does " + name + " have left?";
        work = a + " x " + b + " = " + a * b + ", and " + a * b + " - " + c + " = " + answer + ".";
      }
      case 1 -> {
        int c = 1 + r.nextInt(90);
        answer = (long) a * b + c;
        question = "A train travels " + a + " km every hour for " + b + " hours, then " + c + " km more. How many km does it "
            + "travel in all?";
        work = a + " x " + b + " = " + a * b + ", and " + a * b + " + " + c + " = " + answer + ".";
      }
      case 2 -> {
        int paid = a * b + 1 + r.nextInt(50);
        answer = paid - (long) a * b;
        question = name + " buys " + a + " tickets at " + b + " dollars each and pays with " + paid + " dollars. How many "
            + "dollars of change does " + name + " get?";
        work = a + " x " + b + " = " + a * b + ", and " + paid + " - " + a * b + " = " + answer + ".";
      }
      default -> {
        int c = 1 + r.nextInt(a * b - 1);
        int d = 1 + r.nextInt(30);
        answer = (long) a * b - c + d;
        question = "A farm has " + a + " rows of " + b + " trees. A storm knocks down " + c + " trees and " + d + " new ones "
            + "are planted. How many trees are there now?";
        work = a + " x " + b + " = " + a * b + ", " + a * b + " - " + c + " = " + (a * b - c) + ", and " + (a * b - c) + " + "
            + d + " = " + answer + ".";
      }
    }
    long wrong = near(r, answer);
    return new GeneratedItem("arithmetic-" + index, question, List.of(), Prompts.gsm8k(question), "number",
        Long.toString(answer), Optional.empty(), Optional.empty(), work + "\n#### " + answer,
        "I think it is " + wrong + ".\n#### " + wrong, Optional.of("I am not able to work that out."));
  }

  static GeneratedItem choice(int index) {
    SplittableRandom r = random("choice", index);
    String question;
    List<String> options = new ArrayList<>();
    int right = r.nextInt(4);
    switch (index % 3) {
      case 0 -> {
        int k = 3 + r.nextInt(9);
        question = "Which of these numbers is divisible by " + k + "?";
        for (int i = 0; i < 4; i++) {
          int v;
          if (i == right) v = k * (3 + r.nextInt(20));
          else do v = 10 + r.nextInt(240); while (v % k == 0);
          options.add(Integer.toString(v));
        }
      }
      case 1 -> {
        int weeks = 2 + r.nextInt(30);
        question = "How many days are there in " + weeks + " weeks?";
        List<Integer> used = new ArrayList<>(List.of(weeks * 7));
        for (int i = 0; i < 4; i++) {
          if (i == right) {
            options.add(Integer.toString(weeks * 7));
            continue;
          }
          int v;
          do v = weeks * 7 + (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(12)); while (used.contains(v) || v < 1);
          used.add(v);
          options.add(Integer.toString(v));
        }
      }
      default -> {
        int a = 10 + r.nextInt(90);
        int b = 10 + r.nextInt(90);
        question = "Which of these equals " + a + " + " + b + "?";
        List<Integer> used = new ArrayList<>(List.of(a + b));
        for (int i = 0; i < 4; i++) {
          if (i == right) {
            options.add(Integer.toString(a + b));
            continue;
          }
          int v;
          do v = a + b + (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(15)); while (used.contains(v));
          used.add(v);
          options.add(Integer.toString(v));
        }
      }
    }
    String letter = Prompts.letter(right);
    String other = Prompts.letter((right + 1 + r.nextInt(3)) % 4);
    return new GeneratedItem("choice-" + index, question, options, Prompts.multipleChoice(question, options), "choice", letter,
        Optional.empty(), Optional.empty(), "The answer is " + letter + ".", "The answer is " + other + ".",
        Optional.of("None of them look right to me."));
  }

  static GeneratedItem exact(int index) {
    SplittableRandom r = random("exact", index);
    String question;
    String answer;
    String wrong;
    switch (index % 3) {
      case 0 -> {
        String w = pick(r, WORDS);
        question = "Write the word '" + w + "' backwards. Reply with that word only.";
        answer = new StringBuilder(w).reverse().toString();
        wrong = w;
      }
      case 1 -> {
        int n = 21 + r.nextInt(79);
        question = "Write the number " + n + " in English words, in lower case. Reply with the words only.";
        answer = words(n);
        wrong = words(n + 1 == 100 ? n - 1 : n + 1);
      }
      default -> {
        String a = pick(r, WORDS);
        String b;
        do b = pick(r, WORDS); while (b.equals(a));
        question = "Join the words '" + a + "' and '" + b + "' with a hyphen, first word first. Reply with the result only.";
        answer = a + "-" + b;
        wrong = b + "-" + a;
      }
    }
    return new GeneratedItem("exact-" + index, question, List.of(), question, "exact", answer, Optional.empty(),
        Optional.empty(), answer, wrong, Optional.empty());
  }

  static GeneratedItem regex(int index) {
    SplittableRandom r = random("regex", index);
    LocalDate day = LocalDate.of(2020 + r.nextInt(8), 1, 1).plusDays(r.nextInt(365));
    String question = "What is the date one day after " + day + "? Reply with the date in the form YYYY-MM-DD.";
    LocalDate next = day.plusDays(1);
    return new GeneratedItem("regex-" + index, question, List.of(), question, "regex", next.toString(),
        Optional.of("(\\d{4}-\\d{2}-\\d{2})"), Optional.empty(), "It is " + next + ".", "It is " + day.plusDays(2) + ".",
        Optional.of("I do not know which day that is."));
  }

  static GeneratedItem contains(int index) {
    SplittableRandom r = random("contains", index);
    Month month = Month.of(1 + r.nextInt(12));
    int k = 1 + r.nextInt(11);
    String question = "In one sentence, say which month comes " + k + " month" + (k == 1 ? "" : "s") + " after "
        + name(month) + ".";
    String answer = name(month.plus(k));
    return new GeneratedItem("contains-" + index, question, List.of(), question, "contains", answer, Optional.empty(),
        Optional.empty(), "That month is " + answer + ".", "That month is " + name(month.plus(k + 1)) + ".", Optional.empty());
  }

  static GeneratedItem json(int index) {
    SplittableRandom r = random("json", index);
    String thing = pick(r, THINGS);
    int n = 2 + r.nextInt(98);
    String question = "Return only a JSON object with the fields \"item\" (a string) and \"count\" (a whole number) for "
        + "this order: " + n + " " + thing + ".";
    String expected = "{\"item\":\"" + thing + "\",\"count\":" + n + "}";
    return new GeneratedItem("json-" + index, question, List.of(), question, "json", expected, Optional.empty(),
        Optional.of(JSON_SCHEMA), "{\"item\": \"" + thing + "\", \"count\": " + n + "}",
        "{\"item\": \"" + thing + "\", \"count\": \"" + n + "\"}", Optional.of("Here is your order: " + n + " " + thing + "."));
  }

  private static String name(Month m) {
    return m.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
  }

  /** 21 to 99 in English words, hyphenated as in {@code forty-two}. */
  static String words(int n) {
    if (n < 20) return ONES[n];
    return TENS[n / 10] + (n % 10 == 0 ? "" : "-" + ONES[n % 10]);
  }
}
