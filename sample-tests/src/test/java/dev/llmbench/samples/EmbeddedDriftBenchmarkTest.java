package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.drift.Drift;
import dev.llmbench.drift.DriftAssert;
import dev.llmbench.drift.Drifts;

/**
 * How far a quantised deployment drifts from the original, without an eval: the same 16 prompts, greedy, on both,
 * compared token by token (docs/drift.md). Here both are embedded engines, the candidate one that leaves the
 * reference's greedy path at its 24th token; point them at real servers with {@code baseUrl}, e.g. FP16 and INT4
 * copies of one model.
 */
@Deployment(name = "fp16", embeddedProfile = "gqa-dense")
@Deployment(name = "int4", embeddedProfile = "gqa-dense+diverge=24")
class EmbeddedDriftBenchmarkTest {

  @ConcurrencySweep({1, 8})
  @Drift(prompts = 16, maxTokens = 32, topLogprobs = 5)
  void int4StaysCloseToFp16(SweepLevelResult level, Drifts drift) {
    assertThat(level).hasNoErrors();
    // The last deployment's level at a load sees every candidate; the reference's sees none yet.
    if (drift.of("int4").isEmpty()) return;
    DriftAssert.assertThat(drift).commonPrefixAtLeast(20).top1AgreementAtLeast(0.9).meanKldAtMost(0.05);
  }
}
