package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectIteration;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

class ConcurrencySweepExtensionTests {

  @Test
  void registersOneTestPerLevelNamedByConcurrency() {
    BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class).assertAllPass(3);
    run.tests().assertThatEvents().haveExactly(1, event(displayName("C=1"), finishedSuccessfully()))
        .haveExactly(1, event(displayName("C=2"), finishedSuccessfully()))
        .haveExactly(1, event(displayName("C=4"), finishedSuccessfully()));
  }

  @Test
  void oneLevelRunAloneStillGetsTheSweepsTableChartsAndAnalysis() throws IOException {
    // The second invocation picked alone, as an IDE runs one level: no "last level" ever runs.
    BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class,
        selectIteration(selectMethod(ThreeLevelsTestCases.class, "sweep", SweepLevelResult.class.getName()), 1))
        .assertAllPass(1);
    Path dir = run.sweepDir(ThreeLevelsTestCases.class, "sweep");
    assertThat(Files.readString(dir.resolve("table.txt"))).contains("C= 2 | 4/4 ok").doesNotContain("C= 1 |")
        .doesNotContain("C= 4 |");
    assertThat(dir.resolve("index.html")).exists();
    assertThat(dir.resolve("throughput.svg")).exists();
  }

  @Test
  void aLevelsSettingRunsThoseLevelsAndReportsThem() throws IOException {
    BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class, "llmbench.sweep.levels", "4").assertAllPass(1);
    assertThat(Files.readString(run.sweepDir(ThreeLevelsTestCases.class, "sweep").resolve("table.txt")))
        .startsWith("C= 4 | 4/4 ok (0 err)");
  }

  @Test
  void crossesMaxTokensWithLevelsAndNamesBoth() {
    BenchKit.Run run = BenchKit.run(CrossedTestCases.class).assertAllPass(4);
    List<String> names = run.tests().started().stream().map(e -> e.getTestDescriptor().getDisplayName()).toList();
    assertThat(names).containsExactly("C=1, max_tokens=4", "C=2, max_tokens=4", "C=1, max_tokens=8", "C=2, max_tokens=8");
  }

  @Test
  void emptyLevelsAreAConfigurationErrorNamingTheMethod() {
    assertConfigurationError(EmptyLevelsTestCases.class, "EmptyLevelsTestCases#sweep", "must list at least one level");
  }

  @Test
  void zeroLevelIsAConfigurationError() {
    assertConfigurationError(ZeroLevelTestCases.class, "ZeroLevelTestCases#sweep", "positive concurrency");
  }

  @Test
  void negativeLevelIsAConfigurationError() {
    assertConfigurationError(NegativeLevelTestCases.class, "NegativeLevelTestCases#sweep", "has -2");
  }

  @Test
  void duplicateLevelIsAConfigurationError() {
    assertConfigurationError(DuplicateLevelTestCases.class, "DuplicateLevelTestCases#sweep", "level 2 is listed twice");
  }

  @Test
  void malformedDurationIsAConfigurationErrorWithTheAcceptedForms() {
    assertConfigurationError(BadDurationTestCases.class, "BadDurationTestCases#sweep", "write e.g. 500ms, 30s");
  }

  @Test
  void anEmptyLevelsSettingNamesTheSettingNotTheAnnotation() {
    BenchKit.run(ThreeLevelsTestCases.class, "llmbench.sweep.levels", ",").all().assertThatEvents()
        .haveExactly(1, event(finishedWithFailure(instanceOf(ExtensionConfigurationException.class), message(m ->
            m.contains("ThreeLevelsTestCases#sweep") && m.contains("llmbench.sweep.levels ','")
                && m.contains("configuration parameter llmbench.sweep.levels") && m.contains("lists no value")))));
  }

  private static void assertConfigurationError(Class<?> fixture, String method, String text) {
    BenchKit.run(fixture).all().assertThatEvents().haveExactly(1, event(finishedWithFailure(
        instanceOf(ExtensionConfigurationException.class), message(m -> m.contains(method) && m.contains(text)))));
  }

  @Test
  void failingAssertionStatesActualRequiredAndLevel() {
    BenchKit.run(FailingThresholdTestCases.class).tests().assertThatEvents().haveExactly(1, event(displayName("C=2"),
        finishedWithFailure(message(m -> m.contains("C=2: output throughput (tok/s)") && m.contains("Expecting actual")
            && m.contains("to be greater than") && m.contains("1000000.0")))));
  }

  @Test
  void tooFewSamplesForP99FailsWithTheNumberNeeded() {
    BenchKit.run(P99TooFewTestCases.class).tests().assertThatEvents().haveExactly(1, event(finishedWithFailure(
        message(m -> m.contains("TTFT p99 rests on 10 samples") && m.contains("needs at least 100 requests")))));
  }

  @Test
  void adaptiveModeGathersTheSamplesP99Needs() {
    BenchKit.run(P99AdaptiveTestCases.class).assertAllPass(1);
  }

  @Test
  void everySloViolationIsListed() {
    BenchKit.run(SloViolatedTestCases.class).tests().assertThatEvents().haveExactly(1, event(finishedWithFailure(
        message(m -> m.contains("3 SLO violation(s)") && m.contains("TTFT p50") && m.contains("TPOT p50")
            && m.contains("SLO attainment 0.0%")))));
  }

  @Test
  void settingsOnAnEnclosingClassReachNestedSweeps() {
    BenchKit.run(EnclosingSettingsTestCases.class).assertAllPass(1);
  }

  // ----- fixtures

  @LlmEndpoint(embeddedProfile = "instant")
  static class ThreeLevelsTestCases {
    @ConcurrencySweep({1, 2, 4})
    @Workload(maxTokens = 8)
    @Measurement(requests = 4)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(4);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class CrossedTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = {4, 8})
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.outputTokens()).isEqualTo(2L * r.maxTokens());
    }
  }

  static class EmptyLevelsTestCases {
    @ConcurrencySweep({})
    void sweep(SweepLevelResult r) {}
  }

  static class ZeroLevelTestCases {
    @ConcurrencySweep({1, 0})
    void sweep(SweepLevelResult r) {}
  }

  static class NegativeLevelTestCases {
    @ConcurrencySweep({-2})
    void sweep(SweepLevelResult r) {}
  }

  static class DuplicateLevelTestCases {
    @ConcurrencySweep({1, 2, 2})
    void sweep(SweepLevelResult r) {}
  }

  static class BadDurationTestCases {
    @ConcurrencySweep(1)
    @Measurement(duration = "ten seconds")
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class FailingThresholdTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).outputThroughput().isGreaterThan(1_000_000.0);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class P99TooFewTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 4)
    @Measurement(requests = 10)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).ttft().p99().isLessThan(Duration.ofSeconds(5));
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class P99AdaptiveTestCases {
    @ConcurrencySweep(8)
    @Workload(maxTokens = 4)
    @Measurement(requests = 10, percentiles = {50, 99}, targetCiHalfWidth = 0.25, maxRequests = 400)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r.requestCount()).isGreaterThanOrEqualTo(100);
      assertThat(r).ttft().p99().isLessThan(Duration.ofSeconds(5));
    }
  }

  // 20 ms a token: a client woken late on a busy machine can read the instant profile's tokens in one go.
  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class SloViolatedTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    @Slo(ttft = "1ms", tpot = "100us", percentile = 50)
    void sweep(SweepLevelResult r) {
      assertThat(r).meetsSlo();
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  @Slo(e2eLatency = "30s", percentile = 50)
  @Workload(maxTokens = 3)
  @Measurement(requests = 2)
  static class EnclosingSettingsTestCases {
    @Nested
    class Inner {
      @ConcurrencySweep(1)
      void sweep(SweepLevelResult r) {
        assertThat(r.serviceLevels().e2eLatency()).contains(Duration.ofSeconds(30));
        assertThat(r.maxTokens()).isEqualTo(3);
        assertThat(r.requestCount()).isEqualTo(2);
        assertThat(r).hasNoErrors().meetsSlo();
      }
    }
  }
}
