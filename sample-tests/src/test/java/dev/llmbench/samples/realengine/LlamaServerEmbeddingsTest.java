package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.workload.Embeddings;
import org.junit.jupiter.api.Tag;

/**
 * Embeddings levels on llama-server started with {@code --embeddings --pooling mean} (2 slots on 8093, by
 * {@code scripts/real-engine.sh}): batches of 4 inputs of about 16 words to {@code /v1/embeddings}, whose every
 * answer must carry 4 vectors; inputs per second are 4 times the requests per second, tokens per second are the
 * server's own {@code usage.prompt_tokens} over the window, and there is no TTFT, ITL or TPOT.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8093", readyTimeout = "2m")
class LlamaServerEmbeddingsTest {

  @ConcurrencySweep({1, 2})
  @Embeddings(batchSize = 4)
  @Workload(inputTokens = 16)
  @Measurement(requests = 12)
  @Warmup(requests = 2)
  void batchesOfFour(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    System.out.printf("%s | llama-server embeddings: %.1f inputs/s, %.1f tok/s, %.2f req/s, latency p50 %s%n", level.label(),
        level.inputThroughput().perSecond(), level.totalTokenThroughput().perSecond(), level.requestThroughput().perSecond(),
        level.e2eLatency().percentile(50).orElseThrow());
    assertThat(level.inputThroughput().perSecond()).isCloseTo(4 * level.requestThroughput().perSecond(),
        org.assertj.core.data.Offset.offset(1e-9 * level.requestThroughput().perSecond()));
    // The server counted the tokens (usage), at least one a word of each input.
    assertThat(level.promptTokens()).isGreaterThanOrEqualTo(12L * 4 * 16);
    assertThat(level.outputTokens()).isZero();
    assertThat(level.ttft().isEmpty()).isTrue();
    assertThat(level.itl().isEmpty()).isTrue();
    assertThat(level.tpot().isEmpty()).isTrue();
    assertThat(level.e2eLatency().count()).isEqualTo(12);
  }
}
