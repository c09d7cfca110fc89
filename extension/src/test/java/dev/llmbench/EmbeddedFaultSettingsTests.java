package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** The embedded engine's faults and modes are settings, so a suite can test its own assertions against failures. */
class EmbeddedFaultSettingsTests {

  @Test
  void faultsFromTheAnnotationFailExactlyTheRequestsTheyName() {
    assertThat(BenchKit.run(EveryOtherFailsTestCases.class)).passed("C=1");
  }

  @LlmEndpoint(embeddedProfile = "instant", embeddedFaults = "http500:every2")
  static class EveryOtherFailsTestCases {
    // Requests are numbered from the readiness probe (1); the level's are 2 to 5, so 2 and 4 fail.
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      assertThat(level.errorsByType()).containsExactlyEntriesOf(java.util.Map.of("HTTP 500", 2L));
      LlmBenchAssertions.assertThat(level).hasErrorRateAtMost(0.5);
    }
  }

  @Test
  void aServerThatNeverBecomesReadyIsASetting() {
    // Readiness words its own message (and is being reworked): the parts this test is about.
    assertThat(BenchKit.run(ShortWaitTestCases.class, "llmbench.embedded.mode", "never-ready")).hasSingleFailedTest()
        .failedWith(EndpointNotReadyException.class).hasMessageContainingAll("503", "Loading model");
  }

  @Test
  void aBadFaultSpecNamesTheKeyAndTheAcceptedKinds() {
    assertThat(BenchKit.run(ShortWaitTestCases.class, "llmbench.embedded.faults", "http5000:5%")).hasSingleFailedTest()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: @LlmEndpoint on [ShortWaitTestCases#ready]: llmbench.embedded.faults "
            + "'http5000:5%' (from configuration parameter llmbench.embedded.faults) is not usable: fault "
            + "spec 'http5000:5%', part 'http5000:5%': 'http5000' is not a fault kind; the kinds are http500, "
            + "http429, http503, html, drop, silent, reset, cut, stall, badjson, badutf8, longline, crlf, "
            + "jsontype, nodone, midstreamerror (accepted: comma-separated kind:N% or kind:everyN, e.g. "
            + "http500:5%,reset:2%,drop:every5)");
  }

  @LlmEndpoint(embeddedProfile = "instant", readyTimeout = "1s", readyPollInterval = "100ms")
  static class ShortWaitTestCases {
    @org.junit.jupiter.api.Test
    void ready(LlmClient llm) {}
  }
}
