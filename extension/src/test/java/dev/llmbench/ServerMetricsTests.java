package dev.llmbench;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.server.PrometheusText;
import dev.llmbench.internal.server.TokenCrossChecks;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.server.TokenCrossCheck;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Traces;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Server-side metrics around each level, on the embedded engine (which speaks vLLM's metric names). */
class ServerMetricsTests {

  @Test
  void parsesPrometheusTextWithLabelsTypesAndFamily() {
    PrometheusText text = PrometheusText.parse("""
        # HELP vllm:num_requests_waiting Requests waiting.
        # TYPE vllm:num_requests_waiting gauge
        vllm:num_requests_waiting{model_name="m"} 3
        # TYPE vllm:generation_tokens counter
        vllm:generation_tokens_total{model_name="m"} 1.5e3 1700000000000
        garbage line
        """);
    assertThat(text.family()).isEqualTo("vllm");
    assertThat(text.series()).containsEntry("vllm:num_requests_waiting{model_name=\"m\"}", 3.0)
        .containsEntry("vllm:generation_tokens_total{model_name=\"m\"}", 1500.0);
    assertThat(text.typeOf("vllm:num_requests_waiting{model_name=\"m\"}")).isEqualTo("gauge");
    assertThat(text.typeOf("vllm:generation_tokens_total{model_name=\"m\"}")).isEqualTo("counter");
  }

  @Test
  void countersSumOverLabelSetsAndGaugesKeepTheirPeak() {
    ServerMetrics m = new ServerMetrics("vllm",
        Map.of("vllm:prompt_tokens_total{model_name=\"a\"}", 10.0, "vllm:prompt_tokens_total{model_name=\"b\"}", 5.0),
        Map.of("vllm:num_requests_waiting{model_name=\"a\"}", 4.0), 3);
    assertThat(m.counter("vllm:prompt_tokens_total")).contains(15.0);
    assertThat(m.gaugePeak("vllm:num_requests_waiting")).contains(4.0);
    assertThat(m.counter("vllm:nothing")).isEmpty();
  }

  @Test
  void tokenCrossCheckAddsLlamaCppCacheHitsAndShowsMismatches() {
    List<RequestMetrics> requests = List.of(request(7, 5), request(3, 5)); // 10 output, 10 prompt tokens
    ServerMetrics llama = new ServerMetrics("llamacpp", Map.of("llamacpp:tokens_predicted_total", 10.0,
        "llamacpp:prompt_tokens_total", 4.0, "llamacpp:prompt_tokens_cached_total", 6.0), Map.of(), 1);
    TokenCrossCheck same = TokenCrossChecks.of(requests, llama).orElseThrow();
    assertThat(same.matches()).isTrue();
    assertThat(same.toString()).isEqualTo("output tokens 10 = llamacpp:tokens_predicted_total +10; prompt tokens 10 = "
        + "llamacpp:prompt_tokens_total + llamacpp:prompt_tokens_cached_total +10");
    ServerMetrics vllm = new ServerMetrics("vllm", Map.of("vllm:generation_tokens_total", 12.0,
        "vllm:prompt_tokens_total", 10.0), Map.of(), 1);
    TokenCrossCheck off = TokenCrossChecks.of(requests, vllm).orElseThrow();
    assertThat(off.outputMatches()).isFalse();
    assertThat(off.promptMatches()).isTrue();
    assertThat(off.toString()).startsWith("output tokens 10 ≠ vllm:generation_tokens_total +12");
    assertThat(TokenCrossChecks.of(requests, new ServerMetrics("unknown", Map.of("x", 1.0), Map.of(), 1))).isEmpty();
  }

  static RequestMetrics request(int outputTokens, int promptTokens) {
    return RequestMetrics.of(Traces.at(0).content(1).usage(promptTokens, outputTokens).build());
  }

  @Test
  void queueDepthPreemptionsAndTokenCountsOfALevel() {
    assertThat(BenchKit.run(SingleSlotTestCases.class)).passed("C=1", "C=4");
  }

  @LlmEndpoint(embeddedProfile = "single-slot")
  static class SingleSlotTestCases {
    @ConcurrencySweep({1, 4})
    @Workload(maxTokens = 20)
    @Measurement(requests = 8)
    void sweep(SweepLevelResult level, EarlierLevels earlier) {
      assertThat(level).hasNoErrors().hasServerTokenCountsMatching();
      assertThat(level).serverCounter("vllm:num_preemptions_total").isZero();
      assertThat(level).serverCounter("vllm:generation_tokens_total").isEqualTo(8.0 * 20);
      assertThat(level.serverMetrics().orElseThrow().family()).isEqualTo("vllm");
      assertThat(earlier.all()).hasSize(level.concurrency() == 1 ? 0 : 1);
      assertThat(earlier.toString()).isEqualTo("levels before " + level.label());
      if (level.concurrency() == 4) {
        // One slot, four clients: three wait while one runs.
        assertThat(level).serverGaugePeak("vllm:num_requests_waiting").isGreaterThanOrEqualTo(2.0);
        assertThat(level.ttft().percentile(50).orElseThrow())
            .isGreaterThan(earlier.last().orElseThrow().ttft().percentile(50).orElseThrow().multipliedBy(5));
      }
    }
  }

}
