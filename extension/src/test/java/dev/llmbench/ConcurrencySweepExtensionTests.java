package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectIteration;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

class ConcurrencySweepExtensionTests {

  @Nested
  @DisplayName("levels")
  class RunLevels {

    @Test
    void registersOneTestPerLevelNamedByConcurrency() {
      assertThat(BenchKit.run(ThreeLevelsTestCases.class)).passed("C=1", "C=2", "C=4");
    }

    @Test
    void oneLevelRunAloneStillGetsTheSweepsTableChartsAndAnalysis() throws IOException {
      // The second invocation picked alone, as an IDE runs one level: no "last level" ever runs.
      BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class,
          selectIteration(selectMethod(ThreeLevelsTestCases.class, "sweep", SweepLevelResult.class.getName()), 1));
      assertThat(run).passed("C=2");
      Path dir = run.sweepDir(ThreeLevelsTestCases.class, "sweep");
      assertThat(Files.readString(dir.resolve("table.txt"))).contains("C= 2 | 4/4 ok").doesNotContain("C= 1 |")
          .doesNotContain("C= 4 |");
      assertThat(dir.resolve("index.html")).exists();
      assertThat(dir.resolve("throughput.svg")).exists();
    }

    @Test
    void aLevelsSettingRunsThoseLevelsAndReportsThem() throws IOException {
      BenchKit.Run run = BenchKit.run(ThreeLevelsTestCases.class, "llmbench.sweep.levels", "4");
      assertThat(run).passed("C=4");
      // The verdict, the simulator and the header first, then the one level's row, the only one.
      List<String> rows = Files.readAllLines(run.sweepDir(ThreeLevelsTestCases.class, "sweep").resolve("table.txt")).stream()
          .filter(l -> l.matches("C=\\s*\\d+ \\| \\d+/\\d+ ok .*")).toList();
      assertThat(rows).singleElement().satisfies(row -> assertThat(row).startsWith("C= 4 | 4/4 ok (0 err)"));
    }

    @Test
    void crossesMaxTokensWithLevelsAndNamesBoth() {
      assertThat(BenchKit.run(CrossedTestCases.class))
          .passed("C=1, max_tokens=4", "C=2, max_tokens=4", "C=1, max_tokens=8", "C=2, max_tokens=8");
    }

    @Test
    void settingsOnAnEnclosingClassReachNestedSweeps() {
      assertThat(BenchKit.run(EnclosingSettingsTestCases.class)).passed("C=1");
    }
  }

  @Nested
  @DisplayName("configuration errors name the method and the fix")
  class ConfigurationErrors {

    @Test
    void emptyLevelsAreAConfigurationErrorNamingTheMethod() {
      assertConfigurationError(EmptyLevelsTestCases.class,
          "Configuration error: sweep on method [EmptyLevelsTestCases#sweep]: @ConcurrencySweep must list at least "
              + "one level, e.g. @ConcurrencySweep({1, 2, 4, 8})");
    }

    @Test
    void zeroLevelIsAConfigurationError() {
      assertConfigurationError(ZeroLevelTestCases.class,
          "Configuration error: sweep on method [ZeroLevelTestCases#sweep]: every level must be a positive "
              + "concurrency, but [1, 0] has 0");
    }

    @Test
    void negativeLevelIsAConfigurationError() {
      assertConfigurationError(NegativeLevelTestCases.class,
          "Configuration error: sweep on method [NegativeLevelTestCases#sweep]: every level must be a positive "
              + "concurrency, but [-2] has -2");
    }

    @Test
    void duplicateLevelIsAConfigurationError() {
      assertConfigurationError(DuplicateLevelTestCases.class,
          "Configuration error: sweep on method [DuplicateLevelTestCases#sweep]: level 2 is listed twice in "
              + "[1, 2, 2]; list each once");
    }

    @Test
    void malformedDurationIsAConfigurationErrorWithTheAcceptedForms() {
      assertConfigurationError(BadDurationTestCases.class,
          "Configuration error: sweep on method [BadDurationTestCases#sweep]: 'duration': 'ten seconds' is not a "
              + "duration; write e.g. 500ms, 30s, 20m, 1h or PT20M");
    }

    @Test
    void anEmptyLevelsSettingNamesTheSettingNotTheAnnotation() {
      assertThat(BenchKit.run(ThreeLevelsTestCases.class, "llmbench.sweep.levels", ",")).hasSingleFailure()
          .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
              + "[ThreeLevelsTestCases#sweep]: llmbench.sweep.levels ',' (from configuration parameter llmbench.sweep.levels) "
              + "is not usable: it lists no value; write e.g. 1,4,16");
    }

    private static void assertConfigurationError(Class<?> fixture, String message) {
      assertThat(BenchKit.run(fixture)).hasConfigurationError(message);
    }
  }

  @Nested
  @DisplayName("a failed assertion states level, actual and required")
  class FailedAssertions {

    @Test
    void failingAssertionStatesActualRequiredAndLevel() {
      assertThat(BenchKit.run(FailingThresholdTestCases.class)).level("C=2").failedWith(AssertionError.class)
          .hasMessageMatching(Messages.pattern("""
              [C=2: output throughput (tok/s)]\s
              Expecting actual:
                {n}
              to be greater than:
                1000000.0
              """));
    }

    @Test
    void tooFewSamplesForP99FailsWithTheNumberNeeded() {
      assertThat(BenchKit.run(P99TooFewTestCases.class)).level("C=2").failedWith(AssertionError.class)
          .hasMessage("C=2: TTFT p99 rests on 10 samples, so it is only the maximum; it needs at least 100 requests "
              + "(raise @Measurement(requests), use adaptive mode with targetCiHalfWidth, or call allowingFewSamples())");
    }

    @Test
    void adaptiveModeGathersTheSamplesP99Needs() {
      assertThat(BenchKit.run(P99AdaptiveTestCases.class)).passed("C=8");
    }

    @Test
    void everySloViolationIsListed() {
      assertThat(BenchKit.run(SloViolatedTestCases.class)).level("C=2").failedWith(AssertionError.class)
          .hasMessageMatching(Messages.pattern("""
              C=2: 3 SLO violation(s) of [TTFT ≤ 1.0 ms, TPOT ≤ 100 µs at p50]:
                - TTFT p50 is {duration}, above the required 1.0 ms
                - TPOT p50 is {duration}, above the required 100 µs
                - SLO attainment 0.0% is below the required 50.0% (0 of 4 requests met every objective)"""));
    }
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
