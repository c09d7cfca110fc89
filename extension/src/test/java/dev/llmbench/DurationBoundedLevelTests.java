package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.result.StopReason;
import dev.llmbench.testkit.BenchKit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A level bounded by time: it stops sending, gives requests in flight a grace period, then cancels and counts them. */
class DurationBoundedLevelTests {

  @Test
  void requestsStillRunningAfterTheGraceAreCancelledAndCounted() {
    assertThat(BenchKit.run(LongRequestsTestCases.class)).passed("C=2");
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class LongRequestsTestCases {
    // Each request needs 100 x 20 ms = 2 s; the level sends for 600 ms and waits 300 ms more.
    @ConcurrencySweep(2)
    @Workload(maxTokens = 100)
    @Measurement(duration = "600ms", grace = "300ms")
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      assertThat(r.stopReason()).isEqualTo(StopReason.DURATION);
      assertThat(r.requestCount()).isEqualTo(2);
      assertThat(r.errorsByType()).containsEntry("CANCELLED", 2L);
      assertThat(r.succeeded()).isZero();
      // 600 ms of sending + 300 ms of grace, then cancelled: not the 2 s each request would take. The upper
      // bound is that claim itself (a wait for the requests' own end would read 2 s or more), so a loaded
      // runner that makes the cancel late still passes, and a level that waited for its requests never does.
      assertThat(r.window()).isBetween(Duration.ofMillis(880), Duration.ofMillis(100 * 20));
    }
  }
}
