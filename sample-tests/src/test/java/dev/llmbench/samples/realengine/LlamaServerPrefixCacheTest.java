package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EarlierLevels;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.server.PrefixCacheUse;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * llama-server's prompt cache against one long prompt that every request shares (4 slots, started by
 * {@code scripts/real-engine.sh}). By default each prompt starts with a unique prefix: the server reuses
 * only what its chat template puts before the message (BOS and {@code <|im_start|>user\n}, 8 tokens of the
 * tiny model's ~300), every level pays its full prefill, and TTFT grows with load instead of falling after
 * the first level. With reuse on, every request after the first is served from the cache.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
@Workload(maxTokens = 16, prompt = LlamaServerPrefixCacheTest.LONG_PROMPT)
class LlamaServerPrefixCacheTest {

  /** About 300 tokens of the tiny model (its tokenizer spells most words out): a long shared prefix. */
  static final String LONG_PROMPT = "the model token server request batch cache latency throughput of the server "
      + "and the cache is the model of a request that is in the batch with the token of the latency for the "
      + "throughput of a server on which the model was";

  /** What the chat template puts before every message: BOS, {@code <|im_start|>} and "user\n", spelled out. */
  static final long TEMPLATE_TOKENS = 8;

  /**
   * The most a prompt with a unique prefix shares with the one before it in its slot: the template, and the
   * marker's first hex digits when they happen to match (1 in 16 for one digit, 1 in 256 for two).
   */
  static final long UNIQUE_PREFIX_SHARES = TEMPLATE_TOKENS + 2;

  static PrefixCacheUse cache(SweepLevelResult level) {
    PrefixCacheUse use = level.prefixCache().orElseThrow();
    System.out.printf("%s | %s cached %d of %d prompt tokens (%.1f%%) | TTFT p50 %s%n", level.label(), use.source(),
        use.cachedTokens(), use.promptTokens(), use.hitRate() * 100, level.ttft().percentile(50).orElseThrow());
    return use;
  }

  /** By default: nothing but the template's start is reused, so no level is faster for coming later. */
  @Nested
  class UniquePrefix {
    @ConcurrencySweep({1, 2, 4})
    void levelsPayTheirOwnPrefill(SweepLevelResult level, EarlierLevels earlier) {
      assertThat(level).hasNoErrors().hasServerTokenCountsMatching();
      PrefixCacheUse use = cache(level);
      assertThat(use.source()).isEqualTo("llamacpp:prompt_tokens_cached_total");
      assertThat(use.cachedTokens()).isLessThanOrEqualTo(UNIQUE_PREFIX_SHARES * level.requestCount());
      // More load never makes the first token come sooner: the first level is no outlier (10% for noise).
      Duration ttft = level.ttft().percentile(50).orElseThrow();
      earlier.all().forEach(previous -> assertThat(ttft.toNanos())
          .as("TTFT p50 at %s against %s", level.label(), previous.label())
          .isGreaterThanOrEqualTo((long) (0.9 * previous.ttft().percentile(50).orElseThrow().toNanos())));
    }
  }

  /** With reuse on: the shared prompt is served from the cache, all but its last token. */
  @Nested
  @Workload(maxTokens = 16, prompt = LlamaServerPrefixCacheTest.LONG_PROMPT, prefixCache = Workload.PrefixCache.REUSE)
  class Reuse {
    @ConcurrencySweep({1, 2, 4})
    void levelsAreServedFromTheCache(SweepLevelResult level) {
      assertThat(level).hasNoErrors().hasServerTokenCountsMatching();
      PrefixCacheUse use = cache(level);
      assertThat(use.hitRate()).isGreaterThan(0.9);
      assertThat(use.cachedTokens()).isGreaterThan(10 * TEMPLATE_TOKENS * level.requestCount());
    }
  }
}
