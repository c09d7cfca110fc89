package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.RequestResult;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.LoadShape;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.WakeProbe;
import java.time.Duration;
import java.util.List;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;

class RateSweepExtensionTests {

  @Test
  void registersOneOpenLoopTestPerRate() {
    assertThat(WakeProbe.during(() -> BenchKit.run(PoissonTestCases.class))).passed("rate=5/s", "rate=20/s");
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
      // this same level, once the time this JVM ran no thread at all between its due time and its send (a probe
      // thread's late wake-ups, all of them: a send held back by one stall after another is late by their sum)
      // is taken off, or the time the sending thread waited for a core, when longer (a sleeper, the probe is woken
      // first; a runnable sender waits its turn); the worst one stays far below the waits a cap causes (over 300 ms in the capped case
      // below), beyond the level's own worst wake-up. A dispatcher slow by itself stays late: the probe woke on
      // time and the sender ran meanwhile. The median is bounded by the worst wake-up too: one stall of this JVM makes every send
      // due during it late, yet it is a single sample of the wake-up probe's 2 ms beat, out of its p90: with
      // two CPU hogs at load 20 the median send was 384 ms late against a wake-up p90 of 24 ms.
      WakeProbe probe = WakeProbe.current();
      List<RequestTrace> sent = ((MeasuredLevel) r).metrics().stream().map(RequestMetrics::trace).toList();
      long[] own = sent.stream().mapToLong(t -> t.startNanos() - t.scheduledNanos()
          - probe.heldBetween(t.scheduledNanos(), t.startNanos())).sorted().toArray();
      long[] stalls = sent.stream().mapToLong(t -> probe.heldBetween(t.scheduledNanos(), t.startNanos())).sorted().toArray();
      Duration worstWakeup = r.clientLoad().orElseThrow().wakeupLagMax();
      String measured = String.format("of 20 sends; their dispatch lag p50 %.1f ms max %.1f ms, the process stalled "
          + "or the sender waited for a core meanwhile p50 %.1f ms max %.1f ms; worst wake-up %.1f ms", r.queueTime().percentile(50).orElseThrow().toNanos() / 1e6,
          r.queueTime().max().orElseThrow().toNanos() / 1e6, (stalls[9] + stalls[10]) / 2e6, stalls[19] / 1e6,
          worstWakeup.toNanos() / 1e6);
      assertThat(Duration.ofNanos((own[9] + own[10]) / 2)).as("median dispatch lag beyond the process's stalls and the sender's waits for a core, %s", measured)
          .isLessThan(Duration.ofMillis(15).plus(worstWakeup));
      assertThat(Duration.ofNanos(own[19])).as("worst dispatch lag beyond the process's stalls and the sender's waits for a core, %s", measured)
          .isLessThan(Duration.ofMillis(100).plus(worstWakeup));
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
