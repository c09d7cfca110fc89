package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;

/**
 * A mix of lengths instead of one: prompts of about 480 tokens give or take 240 (genai-bench's {@code N(480,240)},
 * guidellm's {@code prompt_tokens=480,prompt_tokens_stdev=240}), and answers that are mostly short with a long
 * tail, as chat traffic is. Each request's lengths are drawn from the seed, so runs repeat; each level reports
 * the lengths it asked for and the ones the server counted (mean, p50, p99 and a histogram). Without touching
 * code: {@code -Dllmbench.workload.output-length=uniform(64,256)}.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class LengthMixBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Workload(inputLength = "normal(480,240,min=32,max=2048)", outputLength = "empirical(16:60,64:30,256:10)")
  @Measurement(requests = 12)
  void mixedLengths(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
  }
}
