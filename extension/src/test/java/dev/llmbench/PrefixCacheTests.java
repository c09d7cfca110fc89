package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.StubEngine;
import org.junit.jupiter.api.Test;

/**
 * Against a server with vLLM's prefix cache (blocks of 16 tokens, each hash chained to the one before,
 * counted as {@code vllm:prefix_cache_hits_total} and {@code _queries_total}): by default no level and no
 * warm-up is served from the cache; with reuse on, the same prompts are.
 */
class PrefixCacheTests {

  @Test
  void byDefaultNoPromptIsServedFromTheCache() {
    try (StubEngine stub = StubEngine.builder().start()) {
      assertThat(BenchKit.run(AvoidTestCases.class, "llmbench.base-url", stub.url())).passed("C=1", "C=2");
      assertThat(stub.prefixCacheQueries()).isPositive();
      assertThat(stub.prefixCacheHits()).as("hits in the whole run, warm-ups included").isZero();
    }
  }

  @Test
  void withReuseTheSamePromptsAreServedFromTheCache() {
    try (StubEngine stub = StubEngine.builder().start()) {
      assertThat(BenchKit.run(ReuseTestCases.class, "llmbench.base-url", stub.url())).passed("C=1", "C=2");
    }
  }

  static class AvoidTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 2, inputTokens = 64)
    void sweep(SweepLevelResult r) {
      PrefixCacheUse use = r.prefixCache().orElseThrow();
      assertThat(use.source()).isEqualTo("vllm:prefix_cache_hits_total / vllm:prefix_cache_queries_total");
      assertThat(use.promptTokens()).isEqualTo(r.promptTokens());
      assertThat(use.cachedTokens()).isZero();
    }
  }

  static class ReuseTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 2, inputTokens = 64, prefixCache = Workload.PrefixCache.REUSE)
    void sweep(SweepLevelResult r) {
      // Synthetic prompt i (64 words, 4 blocks) is the same at every level and in the warm-up, and cached after
      // its first use. C=1 sends prompts 0-9 after a warm-up of prompt 0; C=2 sends 0-9 again.
      PrefixCacheUse use = r.prefixCache().orElseThrow();
      assertThat(r.requestCount()).isEqualTo(10);
      assertThat(use.promptTokens()).isEqualTo(r.promptTokens()).isEqualTo(640);
      assertThat(use.cachedTokens()).isEqualTo(r.concurrency() == 1 ? 64 : 640);
    }
  }
}
