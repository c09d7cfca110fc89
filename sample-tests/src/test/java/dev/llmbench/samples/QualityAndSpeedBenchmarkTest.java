package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.quality.Quality;
import dev.llmbench.quality.QualityEval;

/**
 * Which deployment: quality and speed. The same model in FP8 and in INT4: INT4 is faster, and the question is
 * what it costs in answers. Every level sends the same 160 generated arithmetic word problems (GSM8K-style,
 * answers computed, nothing copied) to each deployment at the level's concurrency, grades every reply
 * correct, wrong or unparsed, and compares the two item by item: accuracy with its Wilson interval, the
 * difference and the recovery (INT4 over FP8) with paired intervals, the items that flipped, and the page
 * of the decision, accuracy against throughput and goodput under the SLO.
 *
 * <p>Here both are embedded engines whose profiles answer a known share right (gqa-fp8 90%, gqa-int4 85%),
 * so the drop is real and the recovery bound below is met while "not worse" would not be. Point them at real
 * servers without touching the code:
 * {@code -Dllmbench.deployments=fp8=http://gpu-node-1:8000;int4=http://gpu-node-2:8000,model=qwen-int4}.
 */
@Deployment(name = "fp8", embeddedProfile = "gqa-fp8")
@Deployment(name = "int4", embeddedProfile = "gqa-int4")
class QualityAndSpeedBenchmarkTest {

  @ConcurrencySweep({8, 32})
  @QualityEval(generated = QualityEval.Generated.ARITHMETIC, items = 160, maxTokens = 64)
  @Slo(ttft = "500ms", tpot = "30ms", percentile = 90)
  void whichDeployment(SweepLevelResult level, Quality quality, DeploymentLevels atThisLoad) {
    assertThat(level).hasNoErrors();
    // Decided at each load once both are measured: INT4 keeps at least 90% of FP8's accuracy (beyond noise),
    // and is at least as fast.
    assertThat(quality).deployment("int4").recoversAtLeast(0.90).of("fp8");
    assertThat(atThisLoad).deployment("int4").isAtLeastAsFastAs("fp8");
  }
}
