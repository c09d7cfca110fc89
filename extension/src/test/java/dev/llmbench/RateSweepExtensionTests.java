package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.LoadShape;
import dev.llmbench.testkit.BenchKit;
import java.time.Duration;
import java.util.List;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;

class RateSweepExtensionTests {

  @Test
  void registersOneOpenLoopTestPerRate() {
    assertThat(BenchKit.run(PoissonTestCases.class)).passed("rate=5/s", "rate=20/s");
  }

  @Test
  void queueTimeIsTheWaitForACappedSlot() {
    assertThat(BenchKit.run(CappedTestCases.class)).passed("rate=50/s");
  }

  @Test
  void badRatesAreConfigurationErrorsNamingTheMethod() {
    assertConfigurationError(ZeroRateTestCases.class,
        "Configuration error: sweep on method [ZeroRateTestCases#sweep]: every rate must be a positive "
        + "number of requests per second, but [1, 0] has 0");
    assertConfigurationError(DuplicateRateTestCases.class,
        "Configuration error: sweep on method [DuplicateRateTestCases#sweep]: rate 2 is listed twice in "
        + "[2, 2]; list each once");
    assertConfigurationError(EmptyRateTestCases.class,
        "Configuration error: sweep on method [EmptyRateTestCases#sweep]: @RateSweep must list at least "
        + "one rate, e.g. @RateSweep({1, 2, 4})");
    assertConfigurationError(BadBurstinessTestCases.class,
        "Configuration error: sweep on method [BadBurstinessTestCases#sweep]: 'burstiness' must be "
        + "positive (1 is Poisson), was 0");
  }

  private static void assertConfigurationError(Class<?> fixture, String message) {
    assertThat(BenchKit.run(fixture)).hasConfigurationError(message);
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
    @RateSweep({5, 20})
    @Workload(maxTokens = 4, seed = 7)
    @Measurement(requests = 20)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.requestCount()).isEqualTo(20);
      // Requests were due when the gamma schedule says, and went within scheduling jitter of that.
      double rate = ((LoadShape.OpenLoop) r.load()).rate().perSecond();
      double[] due = schedule(rate, 1, 7, 20);
      List<Long> scheduled = ((MeasuredLevel) r).metrics().stream().map(m -> m.trace().scheduledNanos()).sorted().toList();
      for (int i = 0; i < due.length; i++) {
        double actual = (scheduled.get(i) - scheduled.get(0)) / 1e9;
        assertThat(actual).as("due time of request %d", i).isCloseTo(due[i], org.assertj.core.api.Assertions.within(1e-6));
      }
      // Uncapped: nothing waits in the client. A send is late only by how late the client's threads woke in
      // this same level; the worst one stays far below the waits a cap causes (over 300 ms in the capped case
      // below), beyond the level's own worst wake-up. The median is bounded by the worst wake-up too: one stall
      // of this JVM makes every send due during it late by up to its length (at 20/s a stall of half a second
      // holds up half the level), yet it is a single sample of the wake-up probe's 2 ms beat, out of its p90:
      // with two CPU hogs at load 20 the median send was 384 ms late against a wake-up p90 of 24 ms.
      ClientLoad lag = r.clientLoad().orElseThrow();
      assertThat(r.queueTime().percentile(50).orElseThrow()).as("median dispatch lag (worst wake-up %s)", lag.wakeupLagMax())
          .isLessThan(Duration.ofMillis(15).plus(lag.wakeupLagMax()));
      assertThat(r.queueTime().max().orElseThrow()).as("worst dispatch lag (worst wake-up %s)", lag.wakeupLagMax())
          .isLessThan(Duration.ofMillis(100).plus(lag.wakeupLagMax()));
    }
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class CappedTestCases {
    // 50 req/s offered, but one at a time and each ~100 ms: requests wait for the slot.
    @RateSweep(value = 50, maxConcurrency = 1)
    @Workload(maxTokens = 5)
    @Measurement(requests = 8)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      assertThat(r.peakConcurrency()).isEqualTo(1);
      assertThat(r.queueTime().max().orElseThrow()).isGreaterThan(Duration.ofMillis(300));
      assertThat(r.requests().stream().map(RequestResult::queueTime).filter(q -> q.compareTo(Duration.ofMillis(50)) > 0).count())
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
