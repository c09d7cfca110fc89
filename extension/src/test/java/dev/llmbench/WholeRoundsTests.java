package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.testkit.BenchKit;
import org.junit.jupiter.api.Test;

/**
 * A closed-loop level sends whole rounds of C by default, so that C requests are in flight from its first
 * request to its last round, and reads the server's rate at C rather than a mix with a partial last round.
 */
class WholeRoundsTests {

  @Test
  void defaultCountsAreWholeRoundsOfAtLeastThreeAndTenRequests() {
    assertThat(BenchKit.run(DefaultCountTestCases.class)).passed("C=1", "C=3", "C=4", "C=8");
  }

  @Test
  void roundsSendThatManyRoundsOfC() {
    assertThat(BenchKit.run(RoundsTestCases.class)).passed("C=2", "C=3");
  }

  @Test
  void theRoundsSettingWinsOverTheAnnotation() {
    // The fixture asks for two rounds of 3; the setting's one round sends 3.
    assertThat(BenchKit.run(RoundsTestCases.class, "llmbench.sweep.rounds", "1", "llmbench.sweep.levels", "3"))
        .hasSingleFailure().failedWith(AssertionError.class).hasMessage("\nexpected: 6L\n but was: 3L");
  }

  /**
   * The embedded mla-pcie profile decodes one token per step of 16.5 ms + 0.75 ms per further sequence in
   * the batch, and charges 0.15 ms per prompt token on the step that admits it. With whole rounds, C=4
   * must read what the profile gives a round of 4 (which the old default of 10 requests, two rounds and
   * one of 2, read about 17% low), and scale by more than the 80% that would report a knee.
   */
  @Test
  void mlaPcieAtC4ReadsTheProfilesRateAtFour() {
    assertThat(BenchKit.run(MlaPcieTestCases.class)).passed("C=1", "C=4");
  }

  @Test
  void requestsAndRoundsTogetherAreAConfigurationError() {
    assertConfigurationError(BothTestCases.class,
        "Configuration error: sweep on method [BothTestCases#sweep]: @Measurement sets both 'requests' "
        + "(4) and 'rounds' (2); set one of them");
  }

  @Test
  void roundsOnARateSweepAreAConfigurationError() {
    assertConfigurationError(RoundsOnRateTestCases.class,
        "Configuration error: sweep on method [RoundsOnRateTestCases#sweep]: 'rounds' counts whole "
        + "rounds of C requests in a closed loop; a @RateSweep sends by rate: use 'requests' or 'duration'");
  }

  private static void assertConfigurationError(Class<?> fixture, String message) {
    assertThat(BenchKit.run(fixture)).hasConfigurationError(message);
  }

  // ----- fixtures

  @LlmEndpoint(embeddedProfile = "instant")
  static class DefaultCountTestCases {
    @ConcurrencySweep({1, 3, 4, 8})
    @Workload(maxTokens = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      int expected = switch (r.concurrency()) {
        case 1 -> 10;  // 10 rounds of 1
        case 3 -> 12;  // 4 rounds of 3: at least 10 requests
        case 4 -> 12;  // 3 rounds of 4: at least 3 rounds
        default -> 24; // 3 rounds of 8
      };
      assertThat(r.requestCount()).isEqualTo(expected);
      assertThat(r.warnings()).noneMatch(w -> w.contains("whole round"));
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class RoundsTestCases {
    @ConcurrencySweep({2, 3})
    @Workload(maxTokens = 4)
    @Measurement(rounds = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r.requestCount()).isEqualTo(2L * r.concurrency());
    }
  }

  @LlmEndpoint(embeddedProfile = "mla-pcie")
  static class MlaPcieTestCases {
    static final PerformanceProfile PROFILE = PerformanceProfile.MLA_PCIE;
    static final int TOKENS = 10;

    @ConcurrencySweep({1, 4})
    @Workload(maxTokens = TOKENS)
    void sweep(SweepLevelResult r) {
      assertThat(r).hasNoErrors();
      int c = r.concurrency();
      assertThat(r.requestCount() % c).as("whole rounds").isZero();
      // One round: the step that admits the C prompts, then TOKENS - 1 plain steps, all at batch C.
      long promptTokensPerRound = r.promptTokens() * c / r.requestCount();
      double round = (PROFILE.stepTime(c, promptTokensPerRound).toNanos()
          + (TOKENS - 1) * PROFILE.stepTime(c, 0).toNanos()) / 1e9;
      double profileRate = c * TOKENS / round;
      // Each round may also wait up to one step for a step boundary (a request that arrives mid-step is
      // admitted at the next) and pays an HTTP round trip on loopback; on a loaded machine every step may
      // also wake late (the engine's deadlines restart after a late wake-up), by about as much as the client's
      // own threads woke late in the same level. Never faster than the profile.
      double step = PROFILE.stepTime(c, 0).toNanos() / 1e9;
      java.time.Duration lag = r.clientLoad().orElseThrow().wakeupLagP90();
      double late = TOKENS * lag.toNanos() / 1e9;
      double lowest = c * TOKENS / (round + step + 0.002 + late);
      ConfidenceInterval ci = r.outputThroughputCi();
      assertThat(r.outputThroughput().perSecond())
          .as("C=%d reads %s against the profile's %.1f tok/s (wake-up lag p90 %s)", c, ci, profileRate, lag)
          .isBetween(Math.min(lowest, ci.lower()), Math.max(profileRate, ci.upper()));
      assertThat(r.steadyState()).hasValueSatisfying(s -> assertThat(s.inFlight()).isEqualTo(c));
    }
  }

  static class BothTestCases {
    @ConcurrencySweep(2)
    @Measurement(requests = 4, rounds = 2)
    void sweep(SweepLevelResult r) {}
  }

  static class RoundsOnRateTestCases {
    @RateSweep(2)
    @Measurement(rounds = 2)
    void sweep(SweepLevelResult r) {}
  }
}
