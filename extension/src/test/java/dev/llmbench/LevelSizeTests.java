package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.result.StopReason;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A closed-loop level of automatic size, on a real server, sends its count and then goes on until its output
 * throughput is known to the precision (llmbench.sweep.target-ci-half-width), or a cap: whole runs against a stub
 * server at a URL, which LLMBench treats as a real server (the embedded engine at a URL names itself in /version and is
 * the simulator; the extension's pom sets the count alone for its other tests; these set the precision themselves).
 */
class LevelSizeTests {

  private static void runAgainstServer(Duration tokenTime, Class<?> fixture, String target, String... levels) {
    try (StubEngine server = StubEngine.builder().tokenTime(tokenTime).start()) {
      assertThat(BenchKit.run(fixture, "llmbench.base-url", server.url(), "llmbench.sweep.target-ci-half-width", target))
          .passed(levels);
    }
  }

  @Test
  void aLevelAlreadyPreciseAtItsCountSendsThatCountAlone() {
    // Every request of 20 ms tokens takes its 8 steps: over 10 requests the interval is within ±50% however busy
    // the machine (±5% it is not, beside 8 other builds on 2 cores: that level went on to 33 requests).
    runAgainstServer(Duration.ofMillis(20), PreciseTestCases.class, "0.5", "C=2");
  }

  @Test
  void aLevelThatNeverGetsThereGoesOnPastItsCountToACapAndSaysSoInAWarning() {
    // ±0.01% is beyond any reading of a localhost server on a shared machine: the level runs to a cap.
    runAgainstServer(Duration.ofMillis(1), UnreachableTestCases.class, "0.0001", "C=4");
  }

  // ----- fixtures

  @LlmEndpoint
  static class PreciseTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 8)
    void sweep(SweepLevelResult r) {
      assertThat(r.requestCount()).isEqualTo(10);
      assertThat(r.stopReason()).isEqualTo(StopReason.REQUEST_COUNT);
      assertThat(r.warnings()).noneMatch(w -> w.startsWith("output throughput is known only to"));
    }
  }

  @LlmEndpoint
  static class UnreachableTestCases {
    @ConcurrencySweep(4)
    @Workload(maxTokens = 4)
    @Measurement(maxRequests = 40) // the cap of a level of automatic size too
    @Slo(ttft = "10s")
    void sweep(SweepLevelResult r) {
      assertThat(r.stopReason()).isIn(StopReason.REQUEST_CAP, StopReason.TIME_CAP);
      assertThat(r.requestCount()).isGreaterThan(12).isLessThanOrEqualTo(40);
      assertThat(r.warnings()).anyMatch(w -> w.matches("output throughput is known only to ±[0-9.]+% \\(95% interval over "
          + r.requestCount() + " requests\\), wider than ±0\\.0%; the level stopped at its (request|time) cap before it got "
          + "there: .*"));
    }
  }
}
