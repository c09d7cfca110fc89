package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.analysis.ClientCheck;
import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.FindingKind;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every level measures what it cost the client; on the instant profile at high concurrency (a server that
 * answers as fast as the machine allows, in the same JVM) the client cannot keep up, and the level says so.
 */
// Saturation is read from this machine's CPU, wake-up lag and run-queue wait: another test JVM beside it would be read too.
@Tag("timing")
class ClientLoadTests {

  @Test
  void aSaturatedClientIsRecognised() {
    // A server that streams without pause: the rate is whatever this JVM's CPU allows the client to read.
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ZERO).start()) {
      assertThat(BenchKit.run(SaturatedTestCases.class, "llmbench.base-url", stub.url())).passed("C=64");
    }
  }

  @Test
  void everyLevelReportsTheClientsLoad() {
    assertThat(BenchKit.run(LightTestCases.class)).passed("C=2");
  }

  static class SaturatedTestCases {
    @ConcurrencySweep(64)
    @Workload(maxTokens = 1000)
    @Measurement(rounds = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      ClientLoad c = r.clientLoad().orElseThrow();
      System.out.println("client at C=64: " + c);
      assertThat(ClientCheck.reasons(r)).as("%s", c).isNotEmpty();
      assertThat(r.findings()).anyMatch(f -> f.kind() == FindingKind.CLIENT_BOUND
          && f.summary().startsWith("the client may have set C=64's figures"));
    }
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class LightTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 10)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      ClientLoad c = r.clientLoad().orElseThrow();
      System.out.println("client at C=2: " + c);
      assertThat(c.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
      assertThat(c.clientCpu()).isPositive();
      // 4 requests of 10 tokens, each streamed as a role chunk, 10 token chunks, a finish chunk and a usage
      // chunk; [DONE] is not an event.
      assertThat(c.eventsPerSecond() * r.window().toNanos() / 1e9).isCloseTo(4 * 13, org.assertj.core.data.Offset.offset(1e-6));
      // Linux counts each thread's wait for a core (the suite runs on Linux).
      assertThat(c.clientWaitShare()).isNotNaN().isGreaterThanOrEqualTo(0);
      assertThat(c.clientWaitPerRun()).isGreaterThanOrEqualTo(Duration.ZERO);
      assertThat(c.wakeupLagP50()).isLessThanOrEqualTo(c.wakeupLagP90());
      assertThat(c.wakeupLagP90()).isLessThanOrEqualTo(c.wakeupLagMax());
    }
  }
}
