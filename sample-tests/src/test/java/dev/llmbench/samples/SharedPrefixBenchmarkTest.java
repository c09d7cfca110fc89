package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.workload.SharedPrefix;

/**
 * A prefix-cache benchmark, as SGLang's {@code generated-shared-prefix} dataset and inference-perf's
 * {@code shared_prefix} run it: 4 system prompts of about 1,024 tokens, each asked 16 questions of about 64.
 * Every request is still unique (its marker starts the question), but the system prompts come from the
 * server's prefix cache, which the level reports by the server's own counters.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class SharedPrefixBenchmarkTest {

  @ConcurrencySweep({1, 8})
  @Workload(maxTokens = 16)
  @SharedPrefix(groups = 4, promptsPerGroup = 16, systemPromptTokens = 1024, questionTokens = 64)
  @Warmup(requests = 4) // one request per group before each level, so the level measures a warm cache, as in production
  void systemPromptsFromTheCache(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    assertThat(level.prefixCache().orElseThrow().hitRate()).isGreaterThan(0.8);
  }
}
