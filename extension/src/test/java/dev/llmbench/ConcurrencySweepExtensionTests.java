package dev.llmbench;

import static dev.llmbench.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

class ConcurrencySweepExtensionTests {

  static Events run(Class<?> fixture) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().allEvents();
  }

  @Test
  void registersOneTestPerLevelNamedByConcurrency() {
    Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(ThreeLevelsTestCases.class)).execute()
        .testEvents();
    tests.assertStatistics(s -> s.started(3).succeeded(3).failed(0));
    tests.assertThatEvents().haveExactly(1, event(displayName("C=1"), finishedSuccessfully()))
        .haveExactly(1, event(displayName("C=2"), finishedSuccessfully()))
        .haveExactly(1, event(displayName("C=4"), finishedSuccessfully()));
  }

  @Test
  void crossesMaxTokensWithLevelsAndNamesBoth() {
    List<String> names = run(CrossedTestCases.class).started().stream()
        .filter(e -> e.getTestDescriptor().isTest()).map(e -> e.getTestDescriptor().getDisplayName()).toList();
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

  private static void assertConfigurationError(Class<?> fixture, String method, String text) {
    run(fixture).assertThatEvents().haveExactly(1, event(finishedWithFailure(
        instanceOf(ExtensionConfigurationException.class), message(m -> m.contains(method) && m.contains(text)))));
  }

  @Test
  void failingAssertionStatesActualRequiredAndLevel() {
    run(FailingThresholdTestCases.class).assertThatEvents().haveExactly(1, event(displayName("C=2"), finishedWithFailure(
        message(m -> m.contains("C=2: output throughput (tok/s)") && m.contains("Expecting actual")
            && m.contains("to be greater than") && m.contains("1000000.0")))));
  }

  @Test
  void tooFewSamplesForP99FailsWithTheNumberNeeded() {
    run(P99TooFewTestCases.class).assertThatEvents().haveExactly(1, event(finishedWithFailure(
        message(m -> m.contains("p99 rests on 10 samples") && m.contains("needs at least 100 requests")))));
  }

  @Test
  void adaptiveModeGathersTheSamplesP99Needs() {
    run(P99AdaptiveTestCases.class).assertThatEvents()
        .haveExactly(1, event(displayName("C=8"), finishedSuccessfully()));
  }

  @Test
  void everySloViolationIsListed() {
    run(SloViolatedTestCases.class).assertThatEvents().haveExactly(1, event(finishedWithFailure(
        message(m -> m.contains("3 SLO violation(s)") && m.contains("TTFT p50") && m.contains("TPOT p50")
            && m.contains("SLO attainment 0.0%")))));
  }

  // ----- fixtures

  @LlmEndpoint(embeddedProfile = "instant")
  static class ThreeLevelsTestCases {
    @ConcurrencySweep(value = {1, 2, 4}, maxTokens = 8, requests = 4)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(4);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class CrossedTestCases {
    @ConcurrencySweep(value = {1, 2}, maxTokens = {4, 8}, requests = 2, warmupRequests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
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
    @ConcurrencySweep(value = {1}, duration = "ten seconds")
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class FailingThresholdTestCases {
    @ConcurrencySweep(value = {2}, maxTokens = 4, requests = 2, warmupRequests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).outputTokensPerSecond().isGreaterThan(1_000_000.0);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class P99TooFewTestCases {
    @ConcurrencySweep(value = {2}, maxTokens = 4, requests = 10, warmupRequests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).ttftP99().isLessThan(java.time.Duration.ofSeconds(5));
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class P99AdaptiveTestCases {
    @ConcurrencySweep(value = {8}, maxTokens = 4, requests = 10, warmupRequests = 0, percentiles = {50, 99},
        targetCiHalfWidth = 0.25, maxRequests = 400)
    void sweep(SweepLevelResult r) {
      assertThat(r.requestCount()).isGreaterThanOrEqualTo(100);
      assertThat(r).ttftP99().isLessThan(java.time.Duration.ofSeconds(5));
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class SloViolatedTestCases {
    @ConcurrencySweep(value = {2}, maxTokens = 4, requests = 4, warmupRequests = 0)
    @Slo(ttft = "1ms", tpot = "100us", percentile = 50)
    void sweep(SweepLevelResult r) {
      assertThat(r).meetsSlo();
    }
  }
}
