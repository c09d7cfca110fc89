package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.testkit.BenchKit;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Issue #11's check on the embedded engine itself: at high concurrency on the instant profile, the client
 * (which shares the JVM) should saturate before the engine, and the level say so. On this branch the
 * engine's JDK HTTP server is the bottleneck first (measured at C=256: the JVM at 40% of 2 cores, 4,000
 * events/s, no client reason), so the saturated client is shown against a stub that streams without pause
 * ({@link ClientLoadTests}).
 */
@Disabled("needs the embedded engine branch: its own HTTP server, fast enough that the client saturates first at C=256")
class InstantProfileClientTests {

  @Test
  void aClientSaturatedByTheInstantProfileSaysSo() {
    BenchKit.run(InstantTestCases.class).assertAllPass(1);
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
