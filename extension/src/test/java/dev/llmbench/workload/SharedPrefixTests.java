package dev.llmbench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.testkit.BenchKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The shared-prefix workload against the embedded engine's vLLM-style prefix cache (blocks of 16 tokens,
 * hash-chained): with the default {@code prefixCache = AVOID} the marker goes after the shared system prompt,
 * so the server serves the system prompts from its cache, while synthetic prompts of the same length, marked
 * at their start, are served from it not at all.
 */
class SharedPrefixTests {

  @Test
  void theServerServesTheSharedSystemPromptsFromItsCacheAndUniquePromptsNotAtAll() {
    BenchKit.Run run = BenchKit.run(SharedCases.class);
    assertThat(run).passed("C=1", "C=4");
    String table = readTable(run.sweepDir(SharedCases.class, "sweep"));
    assertThat(table).containsPattern("C= 4 \\| shared prefix: 2 groups x 4 questions, system prompt 512 \\+ question 16 "
        + "words; prefix cache 9\\d\\.\\d% of prompt tokens \\(\\d+ of \\d+, vllm:prefix_cache_hits_total");
    assertThat(BenchKit.run(UniqueCases.class)).passed("C=4");
  }

  @Test
  void sharedPrefixWithSyntheticLengthsIsAConfigurationError() {
    assertThat(BenchKit.run(ConflictCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[ConflictCases#sweep]: @SharedPrefix makes its own "
            + "prompts: remove @Workload's inputTokens, prompt and prompts (its lengths are "
            + "systemPromptTokens and questionTokens)");
  }

  private static String readTable(java.nio.file.Path dir) {
    try {
      return java.nio.file.Files.readString(dir.resolve("table.txt"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class SharedCases {
    @ConcurrencySweep({1, 4})
    @Workload(maxTokens = 4)
    @SharedPrefix(groups = 2, promptsPerGroup = 4, systemPromptTokens = 512, questionTokens = 16)
    void sweep(SweepLevelResult r) {
      PrefixCacheUse use = r.prefixCache().orElseThrow();
      // ~540 prompt tokens a request, the system prompt's 32 full blocks shared; at C=1 the one warm-up request
      // caches group 0 only, so group 1's first request is a miss (9 x 512 of 5390 tokens).
      assertThat(use.hitRate()).as("%s: %s", r.label(), use).isGreaterThan(0.8);
      assertThat(r.inputTokens()).isEqualTo(528);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class UniqueCases {
    @ConcurrencySweep({4})
    @Workload(maxTokens = 4, inputTokens = 528)
    void sweep(SweepLevelResult r) {
      assertThat(r.prefixCache().orElseThrow().hitRate()).isLessThan(0.02);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ConflictCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 4, inputTokens = 528)
    @SharedPrefix
    void sweep(SweepLevelResult r) {}
  }
}
