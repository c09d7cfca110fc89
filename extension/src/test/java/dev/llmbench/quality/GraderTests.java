package dev.llmbench.quality;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.engine.sets.GeneratedItem;
import dev.llmbench.engine.sets.GeneratedSets;
import dev.llmbench.internal.workload.JsonReplyCheck;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every grader has replies it must count correct, ones it must count wrong, and ones it must count unparsed. */
class GraderTests {

  static Grade grade(Grader g, String reply) {
    return g.grade(reply).verdict();
  }

  @Test
  void exactMatchNormalisesCaseArticlesPunctuationAndSpace() {
    Grader g = new Grader.Exact("The Eiffel Tower");
    assertThat(grade(g, "eiffel   tower.")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "\"Eiffel Tower\"")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "Eiffel Tower in Paris")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "Tower")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "   ")).isEqualTo(Grade.UNPARSED);
  }

  @Test
  void containsNeedsTheWholeWordsOfTheExpectedText() {
    Grader g = new Grader.Contains("March");
    assertThat(grade(g, "That month is March.")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "It is MARCH, I think")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "That month is April.")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "Marching on")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "")).isEqualTo(Grade.UNPARSED);
  }

  @Test
  void lastNumberPrefersTheGsm8kMarkerThenTheLastNumberWithinTolerance() {
    Grader g = new Grader.LastNumber(new BigDecimal("1234"), 1e-6);
    assertThat(grade(g, "12 x 100 = 1200, plus 34.\n#### 1,234")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "#### 1234 is the answer, from 17 boxes")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "so the total is 1234")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "1234 at first, but then 1235")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "#### 1233")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "I am not able to work that out.")).isEqualTo(Grade.UNPARSED);
    Grader tolerant = new Grader.LastNumber(new BigDecimal("2.5"), 0.01);
    assertThat(grade(tolerant, "about 2.505")).isEqualTo(Grade.CORRECT);
    assertThat(grade(tolerant, "about 2.52")).isEqualTo(Grade.WRONG);
    assertThat(grade(new Grader.LastNumber(new BigDecimal("-3"), 0), "it drops to -3")).isEqualTo(Grade.CORRECT);
  }

  @Test
  void choiceReadsAStatedOrLoneLetterAndNeverTheArticleA() {
    Grader g = new Grader.Choice("B", 4);
    assertThat(grade(g, "The answer is B.")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "Answer: (B)")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "B")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "B) 56")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "A is tempting, but the answer is B")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "The answer is C.")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "(A)")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "a number divisible by seven")).isEqualTo(Grade.UNPARSED);
    assertThat(grade(g, "None of them look right to me.")).isEqualTo(Grade.UNPARSED);
    assertThat(grade(g, "The answer is E.")).as("E is not among 4 choices").isEqualTo(Grade.UNPARSED);
  }

  @Test
  void regexExtractsAndComparesOrJustMatches() {
    Grader extract = new Grader.Regex(Pattern.compile("(\\d{4}-\\d{2}-\\d{2})"), Optional.of("2024-02-29"));
    assertThat(grade(extract, "It is 2024-02-29.")).isEqualTo(Grade.CORRECT);
    assertThat(grade(extract, "It is 2024-03-01.")).isEqualTo(Grade.WRONG);
    assertThat(grade(extract, "I do not know which day that is.")).isEqualTo(Grade.UNPARSED);
    Grader match = new Grader.Regex(Pattern.compile("(?i)\\bdef \\w+\\("), Optional.empty());
    assertThat(grade(match, "def is_prime(n):")).isEqualTo(Grade.CORRECT);
    assertThat(grade(match, "function isPrime(n) {}")).isEqualTo(Grade.WRONG);
    assertThat(grade(match, "")).isEqualTo(Grade.UNPARSED);
  }

  @Test
  void jsonParsesThenChecksTheSchemaThenTheValue() throws Exception {
    ObjectMapper json = new ObjectMapper();
    var schema = json.readTree("{\"type\":\"object\",\"required\":[\"item\",\"count\"],\"properties\":{\"count\":{\"type\":\"integer\"}}}");
    Grader g = new Grader.Json(Optional.of(json.readTree("{\"item\":\"apples\",\"count\":3}")), Optional.of(schema),
        Optional.of(JsonReplyCheck.compile(schema)));
    assertThat(grade(g, "{\"count\": 3, \"item\": \"apples\"}")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "```json\n{\"item\": \"apples\", \"count\": 3}\n```")).isEqualTo(Grade.CORRECT);
    assertThat(grade(g, "{\"item\": \"apples\", \"count\": 4}")).isEqualTo(Grade.WRONG);
    assertThat(grade(g, "{\"item\": \"apples\", \"count\": \"3\"}")).as("misses the schema").isEqualTo(Grade.WRONG);
    assertThat(grade(g, "Here is your order: 3 apples.")).isEqualTo(Grade.UNPARSED);
    assertThat(grade(g, "{\"item\": \"apples\", \"count\": 3} and more")).isEqualTo(Grade.UNPARSED);
    Grader any = new Grader.Json(Optional.empty(), Optional.empty(), Optional.empty());
    assertThat(grade(any, "[1, 2]")).isEqualTo(Grade.CORRECT);
    assertThat(grade(any, "{oops")).isEqualTo(Grade.UNPARSED);
  }

  /** The generated sets' own replies: the right one is right, the wrong one wrong, the unparsed one unparsed, for every grader. */
  @Test
  void everyGeneratedItemsThreeRepliesGradeAsTheirNamesSay() {
    for (GeneratedItem g : GeneratedSets.items(GeneratedSets.Kind.MIXED, 1200)) {
      EvalItem item = GeneratedEvals.item(g, 1e-6);
      assertThat(grade(item.grader(), g.correct())).as("%s right: %s", g.id(), g.correct()).isEqualTo(Grade.CORRECT);
      assertThat(grade(item.grader(), g.wrong())).as("%s wrong: %s", g.id(), g.wrong()).isEqualTo(Grade.WRONG);
      g.unparsed().ifPresent(u -> assertThat(grade(item.grader(), u)).as("%s unparsed: %s", g.id(), u)
          .isEqualTo(Grade.UNPARSED));
    }
    assertThat(GeneratedEvals.set(GeneratedSets.Kind.MIXED, 12, 0).graders()).containsOnlyKeys(Grader.NAMES);
  }

  @Test
  void generatedSetsAreTheSameOnEveryCallAndPromptsAreRecognised() {
    assertThat(GeneratedSets.items(GeneratedSets.Kind.ARITHMETIC, 50)).isEqualTo(GeneratedSets.items(GeneratedSets.Kind.ARITHMETIC, 50));
    GeneratedItem seventh = GeneratedSets.item(GeneratedSets.Kind.CHOICE, 7);
    assertThat(GeneratedSets.byPrompt(seventh.prompt())).contains(seventh);
    assertThat(GeneratedSets.byPrompt(seventh.prompt() + " ")).isEmpty();
  }
}
