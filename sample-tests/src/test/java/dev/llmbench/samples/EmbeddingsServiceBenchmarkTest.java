package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.workload.Embeddings;
import java.time.Duration;

/**
 * An embeddings service (retrieval, search): batches of 8 inputs of about 128 tokens each to {@code /v1/embeddings}
 * at rising concurrency. Each level reports latency, inputs per second and tokens per second with the same
 * statistics and assertions as a generation level; it has no TTFT or ITL, since nothing streams. Against your own
 * server: {@code -Dllmbench.base-url=http://host:8000} (vLLM with an embedding model, llama-server
 * {@code --embeddings --pooling mean}).
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class EmbeddingsServiceBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Embeddings(batchSize = 8)
  @Workload(inputTokens = 128)
  @Measurement(requests = 16)
  void batchesOfEight(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    assertThat(level).inputThroughput().isGreaterThan(0.0);
    assertThat(level).e2eLatency().percentile(90).isLessThan(Duration.ofSeconds(5));
  }
}
