package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.workload.ExactInputTokens;

/**
 * Prefill-bound levels at exact prompt lengths, as {@code vllm bench serve --dataset-name random
 * --random-input-len 128} builds them: every request's prompt is exactly 128 (then 1024) tokens as the server
 * bills them, chat template included. Before each level the prompts are aligned against the server's own
 * tokenizer (here the embedded engine's {@code /tokenize}; vLLM's, SGLang's or llama-server's on yours), and
 * the level reports how exact it came out.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class ExactInputLengthsBenchmarkTest {

  @ConcurrencySweep({1, 8})
  @Workload(maxTokens = 16, inputTokens = {128, 1024})
  @ExactInputTokens
  void prefillAtExactLengths(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    InputAlignment alignment = level.inputAlignment().orElseThrow();
    assertThat(alignment.largestDeviation()).hasValue(0); // every usage.prompt_tokens is the length asked for
  }
}
