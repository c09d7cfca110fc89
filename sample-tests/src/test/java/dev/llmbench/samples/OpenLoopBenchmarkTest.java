package dev.llmbench.samples;

import static dev.llmbench.LlmBenchAssertions.assertThat;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.RateSweep;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import java.time.Duration;

/**
 * Open-loop load, as production traffic arrives: Poisson arrivals at each rate whatever the server's
 * speed, the way {@code vllm bench serve --request-rate} sends them. Up to the rate the server sustains,
 * TTFT stays flat; past it, requests queue. Here against the embedded "gqa-dense" profile.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class OpenLoopBenchmarkTest {

  @RateSweep(value = {4, 16, 64}, requests = 24, maxTokens = 32)
  @Slo(ttft = "500ms", e2eLatency = "2s", percentile = 90)
  void keepsUpWithTheOfferedRate(SweepLevelResult level) {
    assertThat(level).hasNoErrors().meetsSlo();
    assertThat(level).ttft(90).isLessThan(Duration.ofMillis(200)); // no queue: TTFT stays at one decode step or so
    assertThat(level).latencyP90().isLessThan(Duration.ofSeconds(1));
  }
}
