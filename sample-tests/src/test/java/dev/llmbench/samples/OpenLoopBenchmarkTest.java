package dev.llmbench.samples;

import static dev.llmbench.LlmBenchAssertions.assertThat;

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
    assertThat(level).ttft().p90().isLessThan(Duration.ofMillis(200)); // no queue: TTFT stays at one decode step or so
    assertThat(level).e2eLatency().p90().isLessThan(Duration.ofSeconds(1));
  }
}
