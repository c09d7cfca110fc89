package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.datasets.Dataset;

/**
 * Your own traffic, as chat-completions bodies logged one per line: each request sends its row's
 * {@code messages}, and its {@code max_tokens}, {@code temperature}, {@code tools} and {@code response_format}
 * where the row has them (AIPerf's {@code --custom-dataset-type single_turn}, guidellm's {@code --data} of a
 * JSONL file). A row without {@code max_tokens} asks for the {@code @Workload}'s.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class ChatDatasetBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Dataset(path = "src/test/resources/datasets/chat-requests.jsonl", format = Dataset.Format.OPENAI_CHAT)
  @Workload(maxTokens = 64)
  @Measurement(requests = 12)
  void loggedRequests(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
  }
}
