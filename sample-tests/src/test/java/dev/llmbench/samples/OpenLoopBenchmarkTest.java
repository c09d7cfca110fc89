package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import java.time.Duration;

/**
 * Open-loop load, as production traffic arrives: Poisson arrivals at each rate whatever the server's
 * speed, the way {@code vllm bench serve --request-rate} sends them. Up to the rate the server sustains,
 * TTFT stays flat; past it, requests queue. Here against the embedded "gqa-dense" profile.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class OpenLoopBenchmarkTest {

  @RateSweep({4, 16, 64})
  @Workload(maxTokens = 32)
  @Measurement(requests = 24)
  @Slo(ttft = "500ms", e2eLatency = "2s", percentile = 90)
  void keepsUpWithTheOfferedRate(SweepLevelResult level) {
    assertThat(level).hasNoErrors().meetsSlo();
    // No queue: the first token comes within a few of the server's own decode steps, however fast the
    // machine is (a queue would add whole requests' worth of steps).
    Duration decodeStep = level.tpot().percentile(50).orElseThrow();
    assertThat(level).ttft().p90().isLessThan(decodeStep.multipliedBy(5));
  }
}
