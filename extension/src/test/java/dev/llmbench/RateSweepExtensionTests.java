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

import dev.llmbench.internal.metrics.RequestMetrics;
import java.time.Duration;
import java.util.List;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

class RateSweepExtensionTests {

  static Events run(Class<?> fixture) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
  }

  @Test
  void registersOneOpenLoopTestPerRate() {
    run(PoissonTestCases.class).assertThatEvents()
        .haveExactly(1, event(displayName("rate=5/s"), finishedSuccessfully()))
        .haveExactly(1, event(displayName("rate=20/s"), finishedSuccessfully()));
  }

  @Test
  void queueTimeIsTheWaitForACappedSlot() {
    run(CappedTestCases.class).assertThatEvents().haveExactly(1, event(displayName("rate=50/s"), finishedSuccessfully()));
  }

  @Test
  void badRatesAreConfigurationErrorsNamingTheMethod() {
    assertConfigurationError(ZeroRateTestCases.class, "ZeroRateTestCases#sweep", "positive number of requests per second");
    assertConfigurationError(DuplicateRateTestCases.class, "DuplicateRateTestCases#sweep", "rate 2 is listed twice");
    assertConfigurationError(EmptyRateTestCases.class, "EmptyRateTestCases#sweep", "at least one rate");
    assertConfigurationError(BadBurstinessTestCases.class, "BadBurstinessTestCases#sweep", "'burstiness' must be positive");
  }

  private static void assertConfigurationError(Class<?> fixture, String method, String text) {
    EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().allEvents().assertThatEvents()
        .haveExactly(1, event(finishedWithFailure(instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains(method) && m.contains(text)))));
  }

  /** The schedule vLLM would draw: request i is due at the sum of i gamma gaps. */
  static double[] schedule(double rate, double burstiness, long seed, int n) {
    GammaDistribution gaps = new GammaDistribution(new Well19937c(seed), burstiness, 1.0 / (rate * burstiness));
    double[] due = new double[n];
    for (int i = 1; i < n; i++) due[i] = due[i - 1] + gaps.sample();
    return due;
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class PoissonTestCases {
    @RateSweep(value = {5, 20}, requests = 20, maxTokens = 4, seed = 7)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(20);
      // Requests were due when the gamma schedule says, and went within scheduling jitter of that.
      double[] due = schedule(r.plan().rate(), 1, 7, 20);
      List<Long> scheduled = r.requests().stream().map(m -> m.trace().scheduledNanos()).sorted().toList();
      for (int i = 0; i < due.length; i++) {
        double actual = (scheduled.get(i) - scheduled.get(0)) / 1e9;
        assertThat(actual).as("due time of request %d", i).isCloseTo(due[i], org.assertj.core.api.Assertions.within(1e-6));
      }
      // Uncapped: nothing waits in the client.
      assertThat(r.queueTime().max().orElseThrow()).as("dispatch lag").isLessThan(Duration.ofMillis(15));
    }
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class CappedTestCases {
    // 50 req/s offered, but one at a time and each ~100 ms: requests wait for the slot.
    @RateSweep(value = 50, maxConcurrency = 1, requests = 8, maxTokens = 5, warmupRequests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.peakConcurrency()).isEqualTo(1);
      assertThat(r.queueTime().max().orElseThrow()).isGreaterThan(Duration.ofMillis(300));
      assertThat(r.requests().stream().map(RequestMetrics::queueTime).filter(q -> q.compareTo(Duration.ofMillis(50)) > 0).count())
          .isGreaterThanOrEqualTo(5);
    }
  }

  static class ZeroRateTestCases {
    @RateSweep({1, 0})
    void sweep(SweepLevelResult r) {}
  }

  static class DuplicateRateTestCases {
    @RateSweep({2, 2})
    void sweep(SweepLevelResult r) {}
  }

  static class EmptyRateTestCases {
    @RateSweep({})
    void sweep(SweepLevelResult r) {}
  }

  static class BadBurstinessTestCases {
    @RateSweep(value = 1, burstiness = 0)
    void sweep(SweepLevelResult r) {}
  }
}
