package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.datasets.Dataset;

/**
 * Conversations people had, as {@code vllm bench serve --dataset-name sharegpt} sends them: the first human
 * turn of each conversation is the prompt, and its reply's length is the request's {@code max_tokens}.
 * Conversations of one turn, or whose prompt or reply is under 4 tokens, are skipped as vLLM skips them.
 * Point {@code path} at {@code ShareGPT_V3_unfiltered_cleaned_split.json} for the real thing: it is streamed,
 * and {@code rows} with {@code sample = RANDOM} takes a seeded sample of the whole file. Each level's report
 * says which rows it sent, and the requested and actual lengths.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class ShareGptBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Dataset(path = "src/test/resources/datasets/sharegpt-tiny.json", format = Dataset.Format.SHAREGPT)
  @Measurement(requests = 8)
  void conversations(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
  }
}
