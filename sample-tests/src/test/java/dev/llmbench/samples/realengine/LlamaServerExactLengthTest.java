package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.client.RequestResult;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.workload.ExactInputTokens;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * Exact input lengths on llama-server's chat API (4 slots, started by {@code scripts/real-engine.sh}): before
 * each level the synthetic prompts are aligned through its {@code /apply-template} and {@code /tokenize}
 * (ChatML template and BOS included), and every request's {@code usage.prompt_tokens} is then exactly the
 * length asked for, at two lengths; the same by probe requests' usage alone.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
@Measurement(requests = 8)
class LlamaServerExactLengthTest {

  static void everyRequestHasTheRequestedLength(SweepLevelResult level, String method) {
    assertThat(level).hasNoErrors().hasServerTokenCountsMatching();
    InputAlignment a = level.inputAlignment().orElseThrow();
    System.out.printf("%s | %s%n", level.label(), a.describe());
    assertThat(a.method()).isEqualTo(method);
    assertThat(a.requestedTokens()).isEqualTo(level.inputTokens());
    assertThat(a.checkedRequests()).isEqualTo(level.requestCount());
    assertThat(a.largestDeviation()).hasValue(0);
    assertThat(level.requests()).extracting(RequestResult::promptTokens).containsOnly(level.inputTokens());
  }

  /** Through the server's own template and tokenizer. */
  @Nested
  @Workload(maxTokens = 8, inputTokens = {48, 201})
  @ExactInputTokens
  class ThroughTheTokenizeRoute {
    @ConcurrencySweep({2})
    void promptsHaveExactlyTheirLength(SweepLevelResult level) {
      everyRequestHasTheRequestedLength(level, "llama-server POST /apply-template + POST /tokenize");
    }
  }

  /** By asking: probe requests of max_tokens 1, their usage.prompt_tokens the count. */
  @Nested
  @Workload(maxTokens = 8, inputTokens = 100)
  @ExactInputTokens(method = ExactInputTokens.Method.USAGE_PROBES)
  class ByUsageProbes {
    @ConcurrencySweep({2})
    void promptsHaveExactlyTheirLength(SweepLevelResult level) {
      everyRequestHasTheRequestedLength(level, "usage.prompt_tokens of probe requests");
    }
  }
}
