package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.baseline.BaselineComparison;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.quality.Quality;
import dev.llmbench.quality.QualityEval;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import io.qameta.allure.Allure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;

/** Assertions on a whole sweep run once after its last level, as a test of their own. */
class AfterSweepTests {

  static final List<String> ORDER = new ArrayList<>();

  @Test
  void runsOnceAfterTheLastLevelWithTheWholeSweep() {
    ORDER.clear();
    assertThat(BenchKit.run(PassingTestCases.class)).passed("C=1", "C=2", "scales (after the sweep)");
    assertThat(ORDER).containsExactly("C=1", "C=2", "after");
  }

  /** The sweep method's parameters are resolved for the skipped call too, and each deployment is read as a curve of its own. */
  @Test
  void aSweepOfDeploymentsIsReadPerDeployment() {
    assertThat(BenchKit.run(DeploymentsTestCases.class))
        .passed("C=1 · fast", "C=1 · slow", "C=2 · fast", "C=2 · slow", "perDeployment (after the sweep)");
  }

  /** A sweep method that takes its level's Quality gets it for the call skipped after the sweep too. */
  @Test
  void aSweepWithAnEvalResolvesItsQualityForTheCallAfterTheSweep() {
    assertThat(BenchKit.run(EvalTestCases.class)).passed("C=2", "after (after the sweep)");
  }

  @Test
  void aFailureListsEveryFindingItConcerns() {
    assertThat(BenchKit.run(FailingTestCases.class)).test("noReadings (after the sweep)").failedWith(AssertionError.class)
        .hasMessageMatching(Messages.pattern("""
            [FailingTestCases.sweep] expected no finding of kind SCALING but found 1:
              - 2x the concurrency (C=1 to C=2) gave {n}x the throughput ({n} to {n} tok/s): {*}
                  evidence: output throughput at C=1 = {n} tok/s; {*}"""));
  }

  @Test
  void aMethodWithTheWrongParameterIsAConfigurationError() {
    assertConfigurationError(WrongParameterTestCases.class, "Configuration error: @AfterSweep on method "
        + "[WrongParameterTestCases#after]: an @AfterSweep method takes exactly one parameter, the SweepResult: "
        + "void after(SweepResult sweep)");
  }

  @Test
  void aNameThatIsNoSweepIsAConfigurationError() {
    assertConfigurationError(UnknownSweepTestCases.class, "Configuration error: @AfterSweep on method "
        + "[UnknownSweepTestCases#after]: @AfterSweep(\"throughput\") names no sweep of this class; its sweeps are [sweep]");
  }

  @Test
  void noNameWithTwoSweepsIsAConfigurationError() {
    // Each sweep the method could mean fails with it.
    BenchKit.Run run = BenchKit.run(TwoSweepsTestCases.class);
    for (String sweep : List.of("one(SweepLevelResult)", "two(SweepLevelResult)")) {
      assertThat(run).container(sweep).failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: "
          + "@AfterSweep on method [TwoSweepsTestCases#after]: @AfterSweep names no sweep and the class has 2 [one, two]: name "
          + "one, e.g. @AfterSweep(\"one\")");
    }
    assertThat(run.all().failed().count()).as("failures of the run").isEqualTo(2);
  }

  private static void assertConfigurationError(Class<?> fixture, String message) {
    assertThat(BenchKit.run(fixture)).hasConfigurationError(message);
  }

  /** In Allure, the failed sweep assertion is a result of its own, in the "Sweep finding" category. */
  @Test
  void inAllureAFailedSweepAssertionIsASweepFinding(@TempDir Path results) throws IOException {
    JsonNode failed = BenchKit.runWithAllure(FailingTestCases.class, results).stream()
        .filter(r -> r.path("name").asText().endsWith("noReadings (after the sweep)")).findFirst().orElse(null);
    ObjectMapper json = new ObjectMapper();
    assertThat(failed).as("the after-sweep result").isNotNull();
    assertThat(failed.path("status").asText()).isEqualTo("failed");
    String text = failed.path("statusDetails").path("message").asText();
    List<JsonNode> categories = new ArrayList<>();
    json.readTree(results.resolve("categories.json").toFile()).forEach(categories::add);
    Optional<String> category = categories.stream().filter(c -> text.matches(c.path("messageRegex").asText()))
        .map(c -> c.path("name").asText()).findFirst();
    assertThat(category).contains("Sweep finding");
  }

  // ----- fixtures

  static class EvalTestCases {
    @ConcurrencySweep(2)
    @QualityEval(generated = QualityEval.Generated.EXACT_MATCH, items = 6)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r, Quality quality) {
      assertThat(quality.accuracy().graded()).isEqualTo(6);
    }

    @AfterSweep
    void after(SweepResult sweep) {
      assertThat(sweep.levels()).hasSize(1);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class PassingTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      ORDER.add(r.label());
    }

    @AfterSweep("sweep")
    void scales(SweepResult sweep) {
      ORDER.add("after");
      assertThat(sweep.title()).isEqualTo("PassingTestCases.sweep");
      assertThat(sweep.levels()).extracting(SweepLevelResult::label).containsExactly("C=1", "C=2");
      assertThat(sweep.findings(FindingKind.SCALING)).hasSize(1);
      double expected = sweep.levels().get(1).outputThroughput().perSecond() / (2 * sweep.levels().get(0).outputThroughput().perSecond());
      assertThat(sweep).scalingEfficiencyAt(2).isEqualTo(expected);
      assertThat(sweep).scalingEfficiencyAt(1).isEqualTo(1.0);
    }
  }

  @Deployment(name = "fast", embeddedProfile = "instant")
  @Deployment(name = "slow", embeddedProfile = "fixed-20ms")
  static class DeploymentsTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r, DeploymentLevels atThisLoad, BaselineComparison baseline) {
      // What the sweep's features give each level, here and (for the last level) in the skipped call after the sweep.
      assertThat(atThisLoad.of(r.endpoint().deployment().orElseThrow())).containsSame(r);
      assertThat(baseline.source()).isEqualTo("no baseline: declare @Baseline");
      assertThat(baseline.deltas()).isEmpty();
    }

    @AfterSweep
    void perDeployment(SweepResult sweep) {
      assertThat(sweep.levels()).extracting(SweepLevelResult::label)
          .containsExactly("C=1 · fast", "C=1 · slow", "C=2 · fast", "C=2 · slow");
      assertThat(sweep.findings(FindingKind.SCALING)).extracting(Finding::summary)
          .satisfiesExactlyInAnyOrder(f -> assertThat(f).startsWith("[fast] "), f -> assertThat(f).startsWith("[slow] "));
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class FailingTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {}

    @AfterSweep
    void noReadings(SweepResult sweep) {
      assertThat(sweep).hasNoFindings(FindingKind.SCALING);
    }
  }

  static class WrongParameterTestCases {
    @ConcurrencySweep(1)
    void sweep(SweepLevelResult r) {}

    @AfterSweep
    void after(SweepLevelResult r) {}
  }

  static class UnknownSweepTestCases {
    @ConcurrencySweep(1)
    void sweep(SweepLevelResult r) {}

    @AfterSweep("throughput")
    void after(SweepResult r) {}
  }

  static class TwoSweepsTestCases {
    @ConcurrencySweep(1)
    void one(SweepLevelResult r) {}

    @ConcurrencySweep(2)
    void two(SweepLevelResult r) {}

    @AfterSweep
    void after(SweepResult r) {}
  }
}
