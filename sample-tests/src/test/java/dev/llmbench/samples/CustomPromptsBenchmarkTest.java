package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.datasets.Dataset;

/**
 * The file {@code vllm bench serve --dataset-name custom} reads: one {@code {"prompt": ..., "output_tokens": ...}}
 * per line. {@code rows = 6} sends the first six rows (the file is read no further), cycling through them.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class CustomPromptsBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Dataset(path = "src/test/resources/datasets/custom-prompts.jsonl", format = Dataset.Format.VLLM_CUSTOM, rows = 6)
  @Measurement(requests = 12)
  void customPrompts(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
  }
}
