package dev.llmbench.quality;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Evals through the JUnit Platform against the embedded engine, whose profiles answer generated items right
 * with a known probability: gqa-fp8 0.90, gqa-int4 0.85 (on a subset of fp8's right items), instant 1.
 */
class QualityEvalTests {

  @Test
  void aDropFrom90To85On500PairedItemsIsDetectedAndRecoveryIsMeasured() {
    BenchKit.Run run = BenchKit.run(KnownTruthTestCases.class);
    assertThat(run).level("C=64 · fp8").succeeded();
    assertThat(run).level("C=64 · int4").failedWith(AssertionError.class).hasMessageMatching(Messages.pattern("[C=64] int4 "
        + "answers fewer items right than fp8 beyond noise: int4 against fp8 on 500 paired items: difference {n} points "
        + "[{n}, {n}], recovery {n}% [{n}%, {n}%], {n} lost and 0 gained (exact McNemar p = {n}); lost [{*}] and {n} more"));
  }

  @Test
  void everyGraderOnAPerfectEngineIsRightAndTheLevelStillRunsAtLoad() throws IOException {
    BenchKit.Run run = BenchKit.run(EveryGraderTestCases.class);
    assertThat(run).passed("C=1", "C=16");
    // The feature's sections reach the reports, which never name it: the table, each level's and the sweep's JSON.
    Path dir = run.sweepDir(EveryGraderTestCases.class, "everyGrader");
    String table = Files.readString(dir.resolve("table.txt"));
    assertThat(table).contains("C=1 | quality: generated:every-grader 100.0%", "C=16 | quality: generated:every-grader 100.0%",
        "quality and speed: generated:every-grader, 48 items", "accuracy-throughput frontier");
    // Said once: the frontier is a conclusion, not also a line of the feature's table section.
    assertThat(table.split("accuracy-throughput frontier", -1)).as("%s", table).hasSize(2);
    JsonNode level = new ObjectMapper().readTree(dir.resolve("C=16.json").toFile()).path("llmbench").path("quality");
    assertThat(level.path("eval").asText()).isEqualTo("generated:every-grader");
    assertThat(level.path("accuracy").path("correct").asInt()).isEqualTo(48);
    JsonNode sweep = new ObjectMapper().readTree(dir.resolve("sweep.json").toFile());
    assertThat(sweep.has("quality")).as(sweep.toString()).isTrue();
    assertThat(sweep.path("conclusions").toString()).contains("accuracy-throughput frontier");
    assertThat(dir.resolve("quality.svg")).exists();
    assertThat(dir.resolve("quality-items.json")).exists();
    // The decision leads the page: right under the answer, above the headline charts and the findings.
    String page = Files.readString(dir.resolve("index.html"));
    int answer = page.indexOf("<h3>Answer</h3>");
    int decision = page.indexOf("<section class=\"quality\">");
    assertThat(answer).as("the answer").isNotNegative();
    assertThat(decision).as("the quality section, after the answer").isGreaterThan(answer);
    assertThat(page.indexOf("<div class=\"charts\">")).as("the headline charts, after the quality section").isGreaterThan(decision);
  }

  @Test
  void aBadRowFailsBeforeAnyRequestNamingFileLineAndField() throws IOException {
    Path file = Path.of(BAD_FILE);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"question\": \"1 + 1?\", \"answer\": \"#### 2\"}\n\n{\"question\": \"2 + 2?\", \"answer\": \"four\"}\n");
    BenchKit.Run run = BenchKit.run(BadFileTestCases.class);
    assertThat(run).hasSingleFailure().failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: "
        + "sweep on method [BadFileTestCases#bad]: " + file + " line 3, field \"answer\": has no final answer after '#### '; "
        + "expected GSM8K's form, the working then \"#### 42\" at the end");
    // Before the first request: no level, which is what sends requests, even started.
    assertThat(run.tests().started().count()).as("levels started").isZero();
  }

  @Test
  void anEvalLevelIsBoundedByItsItems() {
    assertThat(BenchKit.run(TooManyRequestsTestCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[TooManyRequestsTestCases#tooMany]: C=2: an eval level sends each of its 10 items once, so it is bounded by them: leave @Measurement automatic (every "
            + "item), or ask for at most that many requests (it asks for 20)");
  }

  // ----- fixtures

  /** Relative to the working directory, as a suite names its files; written by the test. */
  static final String BAD_FILE = "target/quality-tests/gsm8k-bad.jsonl";

  @Deployment(name = "fp8", embeddedProfile = "gqa-fp8")
  @Deployment(name = "int4", embeddedProfile = "gqa-int4")
  static class KnownTruthTestCases {
    @ConcurrencySweep(64)
    @QualityEval(generated = QualityEval.Generated.ARITHMETIC, items = 500, maxTokens = 64)
    @Warmup(requests = 0)
    void paired(SweepLevelResult level, Quality quality) {
      assertThat(level).hasNoErrors();
      String me = level.endpoint().deployment().orElseThrow();
      Accuracy a = quality.accuracy(me).orElseThrow();
      assertThat(a.graded()).isEqualTo(500);
      // The truth is inside the 95% interval under this seed, and wrong replies are half unparsed ones.
      double truth = me.equals("fp8") ? 0.90 : 0.85;
      assertThat(a.interval().lower()).isLessThan(truth);
      assertThat(a.interval().upper()).isGreaterThan(truth);
      assertThat(a.unparsed()).isPositive().isLessThan(a.wrong() + a.unparsed());
      assertThat(a.wrong()).isPositive();
      if (me.equals("int4")) {
        QualityComparison c = quality.compare("int4", "fp8").orElseThrow();
        assertThat(c.pairs()).isEqualTo(500);
        assertThat(c.onlyCandidate()).isZero(); // int4 is right on a subset of fp8's right items
        assertThat(c.recovery().lower()).isLessThan(0.85 / 0.90 + 0.03);
        assertThat(quality).deployment("int4").recoversAtLeast(0.85).of("fp8").hasAccuracyAtLeast(0.80);
        assertThat(quality).deployment("int4").isNotWorseThan("fp8"); // must fail: the drop is beyond noise
      } else {
        assertThat(quality.compare("int4", "fp8")).as("int4 is not measured yet at this load").isEmpty();
      }
    }
  }

  static class EveryGraderTestCases {
    @ConcurrencySweep({1, 16})
    @QualityEval(generated = QualityEval.Generated.EVERY_GRADER, items = 48, maxTokens = 64)
    @Warmup(requests = 0)
    void everyGrader(SweepLevelResult level, Quality quality) {
      assertThat(level).hasNoErrors();
      Accuracy a = quality.accuracy();
      assertThat(a.correct()).as(a.toString()).isEqualTo(48);
      assertThat(quality).hasAccuracyAtLeast(0.99).hasUnparsedRateAtMost(0);
    }
  }

  static class BadFileTestCases {
    @ConcurrencySweep(1)
    @QualityEval(path = BAD_FILE, format = QualityEval.Format.GSM8K)
    void bad(SweepLevelResult level) {}
  }

  static class TooManyRequestsTestCases {
    @ConcurrencySweep(2)
    @QualityEval(generated = QualityEval.Generated.EXACT_MATCH, items = 10)
    @Measurement(requests = 20)
    void tooMany(SweepLevelResult level) {}
  }
}
