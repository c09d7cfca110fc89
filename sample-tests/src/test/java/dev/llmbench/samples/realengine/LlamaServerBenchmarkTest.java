package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EarlierLevels;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * The same sweeps against a real engine: llama.cpp's llama-server with a tiny seeded model, started by
 * {@code scripts/real-engine.sh} (one server with 1 slot, one with 4). Run with {@code -Preal-engine}.
 * Token counts must equal the server's own Prometheus counters exactly.
 */
@Tag("real-engine")
// These sweeps are about slots, not prefill: on one CPU thread, prefilling C unique prompts together takes
// longer than their tokens' decode steps save, so levels may reuse the prompt cache (the default avoids it;
// LlamaServerPrefixCacheTest covers both).
@Workload(maxTokens = LlamaServerBenchmarkTest.MAX_TOKENS, inputTokens = 16, prefixCache = Workload.PrefixCache.REUSE)
@Measurement(requests = 16) // whole rounds at every level, and enough of them that 2-core noise stays under the 10% margin
class LlamaServerBenchmarkTest {

  static final int MAX_TOKENS = 128; // a generation long enough to dominate prefill on the tiny model

  /** Half the time one request takes to generate its tokens: the line between queued and not. */
  static Duration halfAGeneration(SweepLevelResult level) {
    return level.tpot().percentile(50).orElseThrow().multipliedBy(MAX_TOKENS).dividedBy(2);
  }

  /** One slot: requests queue, so TTFT grows with concurrency. */
  @Nested
  @LlmEndpoint(baseUrl = "http://127.0.0.1:8091", readyTimeout = "2m")
  class SingleSlot {
    @ConcurrencySweep({1, 2, 4})
    void requestsQueue(SweepLevelResult level) {
      assertThat(level).hasNoErrors().hasServerTokenCountsMatching().hasDecodeRateMatchingServer();
      // Each request waits for at least half of another's generation before its first token.
      if (level.concurrency() > 1) {
        assertThat(level.ttft().percentile(50).orElseThrow()).isGreaterThan(halfAGeneration(level));
      }
      assertThat(level).serverGaugePeak("llamacpp:requests_processing").isLessThanOrEqualTo(1.0);
    }
  }

  /** Four slots: requests run side by side, so TTFT stays low and aggregate throughput does not fall. */
  @Nested
  @LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
  class FourSlots {
    @ConcurrencySweep({1, 2, 4})
    void requestsRunTogether(SweepLevelResult level, EarlierLevels earlier) {
      assertThat(level).hasNoErrors().hasServerTokenCountsMatching().hasDecodeRateMatchingServer();
      // llama-server answers keep-alive, then closes the connection after each stream: the level says so.
      assertThat(level.warnings()).anyMatch(w -> w.startsWith("the server closes its connection after each response"));
      // No request waits for another's generation (SingleSlot's do). At C=1 nothing can wait: its TTFT is the
      // prefill alone, which on this model is as long as half a generation, so the claim is about C > 1.
      if (level.concurrency() > 1) {
        assertThat(level.ttft().percentile(50).orElseThrow()).isLessThan(halfAGeneration(level));
      }
      // More load never costs aggregate throughput (10% for noise on 2 cores).
      earlier.last().ifPresent(previous -> assertThat(level).outputThroughput()
          .isGreaterThanOrEqualTo(0.9 * previous.outputThroughput().perSecond()));
    }
  }
}
