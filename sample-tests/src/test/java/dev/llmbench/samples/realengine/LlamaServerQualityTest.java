package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.quality.Accuracy;
import dev.llmbench.quality.Quality;
import dev.llmbench.quality.QualityEval;
import org.junit.jupiter.api.Tag;

/**
 * An eval through every grader (number, choice, exact, regex, contains, JSON with a schema) on llama-server's
 * real replies (4 slots, started by {@code scripts/real-engine.sh}). The tiny seeded model writes gibberish, so
 * the eval must grade every reply wrong or unparsed, never crash on it and never count it right by accident of
 * the graders; at C=1 and C=4, the same 60 items each.
 *
 * <p>Sampled at temperature 1: at 0 this model answers these prompts with byte tokens that never form UTF-8,
 * which llama-server's stream withholds (its non-streamed reply shows them as U+FFFD), so every reply would
 * be empty and only the graders' "empty reply" path would run.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
class LlamaServerQualityTest {

  @ConcurrencySweep({1, 4})
  @QualityEval(generated = QualityEval.Generated.EVERY_GRADER, items = 60, maxTokens = 24, temperature = 1, seed = 7)
  @Warmup(requests = 0)
  void gibberishIsWrongOrUnparsed(SweepLevelResult level, Quality quality) {
    assertThat(level).hasNoErrors();
    Accuracy a = quality.accuracy();
    System.out.println(level.label() + " | llama-server quality: " + a);
    assertThat(a.graded()).isEqualTo(60);
    assertThat(a.failed()).isZero();
    // Random text may hold a stray digit or letter, but the right answer to a computed question, at most by chance.
    assertThat(a.correct()).as(a.toString()).isLessThanOrEqualTo(3);
    assertThat(a.unparsed()).as("replies with no answer in them (the JSON and choice items at least)").isPositive();
    assertThat(a.wrong()).as("replies with text, graded wrong (the exact and contains items at least)").isPositive();
    assertThat(quality).hasAccuracyAtLeast(0);
  }
}
