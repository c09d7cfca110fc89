package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.result.FindingKind;
import dev.llmbench.testkit.BenchKit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue #11's check on the embedded engine itself: at high concurrency on the instant profile, the client
 * (which shares the JVM with the engine) saturates, and the level says so rather than passing the figures
 * off as the server's.
 */
// Saturation is read from this machine's CPU, wake-up lag and run-queue wait: another test JVM beside it would be read too.
@Tag("timing")
class InstantProfileClientTests {

  @Test
  void aClientSaturatedByTheInstantProfileSaysSo() {
    assertThat(BenchKit.run(InstantTestCases.class)).passed("C=256");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class InstantTestCases {
    @ConcurrencySweep(256)
    @Workload(maxTokens = 200)
    @Measurement(rounds = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r.findings()).anyMatch(f -> f.kind() == FindingKind.CLIENT_BOUND);
    }
  }
}
