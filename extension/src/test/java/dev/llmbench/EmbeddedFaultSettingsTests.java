package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** The embedded engine's faults and modes are settings, so a suite can test its own assertions against failures. */
class EmbeddedFaultSettingsTests {

  @Test
  void faultsFromTheAnnotationFailExactlyTheRequestsTheyName() {
    BenchKit.run(EveryOtherFailsTestCases.class).assertAllPass(1);
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
    BenchKit.run(ShortWaitTestCases.class, "llmbench.embedded.mode", "never-ready").tests().assertThatEvents()
        .haveExactly(1, event(finishedWithFailure(instanceOf(EndpointNotReadyException.class),
            message(m -> m.contains("503") && m.contains("Loading model")))));
  }

  @Test
  void aBadFaultSpecNamesTheKeyAndTheAcceptedKinds() {
    BenchKit.run(ShortWaitTestCases.class, "llmbench.embedded.faults", "http5000:5%").tests().assertThatEvents()
        .haveExactly(1, event(finishedWithFailure(instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("llmbench.embedded.faults 'http5000:5%'") && m.contains("http500")))));
  }

  @LlmEndpoint(embeddedProfile = "instant", readyTimeout = "1s", readyPollInterval = "100ms")
  static class ShortWaitTestCases {
    @org.junit.jupiter.api.Test
    void ready(LlmClient llm) {}
  }
}
