package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.server.ServerMetrics;
import java.time.Duration;

/**
 * Open-loop load, as production traffic arrives: Poisson arrivals at each rate whatever the server's
 * speed, the way {@code vllm bench serve --request-rate} sends them. Up to the rate the server sustains,
 * TTFT stays flat; past it, requests queue. Here against the embedded "gqa-dense" profile.
 *
 * <p>The checks judge the client's figures against the server's own, from its Prometheus histograms (vLLM
 * exports the same ones), taken in the same level: a busy client machine slows both alike, while a queue in
 * the server or latency the client adds shows as a gap between them.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class OpenLoopBenchmarkTest {

  @RateSweep({4, 16, 64})
  @Workload(maxTokens = 32)
  @Measurement(requests = 24)
  void keepsUpWithTheOfferedRate(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    ServerMetrics server = level.serverMetrics().orElseThrow();
    Duration serverTtft = mean(server, "vllm:time_to_first_token_seconds");
    Duration serverStep = mean(server, "vllm:request_time_per_output_token_seconds");
    // No queue in the server: a request's first token comes within a few of its own decode steps (a queue
    // would add whole requests' worth of them).
    assertThat(serverTtft).as("%s: the server's own mean TTFT", level.label())
        .isLessThan(serverStep.multipliedBy(5));
    // The client adds no more than a couple of steps to what the server took (HTTP, reading the stream).
    assertThat(level).ttft().p50().as("%s: TTFT p50, next to the server's mean %s", level.label(), serverTtft)
        .isLessThan(serverTtft.plus(serverStep.multipliedBy(3)));
  }

  /** The mean of a server histogram over the level: its {@code _sum} delta over its {@code _count} delta. */
  private static Duration mean(ServerMetrics server, String histogram) {
    double sum = server.counter(histogram + "_sum").orElseThrow();
    double count = server.counter(histogram + "_count").orElseThrow();
    return Duration.ofNanos(Math.round(sum / count * 1e9));
  }
}
