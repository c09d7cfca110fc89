package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.workload.SharedPrefix;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * The shared-prefix workload on llama-server (4 slots, started by {@code scripts/real-engine.sh}), its hit rate
 * from the server's own counter ({@code llamacpp:prompt_tokens_cached_total}): two system prompts of 60 words
 * (about 330 tokens of the tiny model, which spells most words out) with 4 questions each; the unique marker
 * goes after the system prompt, so the server reuses it. A unique-prefix level of about the same length beside
 * it reuses nothing but its chat template's start.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
@Measurement(requests = 16)
class LlamaServerSharedPrefixTest {

  static PrefixCacheUse cache(SweepLevelResult level) {
    PrefixCacheUse use = level.prefixCache().orElseThrow();
    System.out.printf("%s | %s cached %d of %d prompt tokens (%.1f%%)%n", level.label(), use.source(), use.cachedTokens(),
        use.promptTokens(), use.hitRate() * 100);
    assertThat(use.source()).isEqualTo("llamacpp:prompt_tokens_cached_total");
    return use;
  }

  @Nested
  @Workload(maxTokens = 8)
  @SharedPrefix(groups = 2, promptsPerGroup = 4, systemPromptTokens = 60, questionTokens = 4)
  class Shared {
    @ConcurrencySweep({2})
    void systemPromptsComeFromTheCache(SweepLevelResult level) {
      assertThat(level).hasNoErrors();
      assertThat(cache(level).hitRate()).isGreaterThan(0.8);
    }
  }

  @Nested
  @Workload(maxTokens = 8, inputTokens = 64)
  class UniquePrefix {
    @ConcurrencySweep({2})
    void nothingComesFromTheCache(SweepLevelResult level) {
      assertThat(level).hasNoErrors();
      assertThat(cache(level).hitRate()).isLessThan(0.05);
    }
  }
}
