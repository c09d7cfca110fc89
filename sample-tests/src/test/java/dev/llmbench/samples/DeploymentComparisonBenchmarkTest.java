package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.deployments.DeploymentLevels;

/**
 * Which deployment to choose: one sweep over two deployments in one run. Every level is a test per
 * deployment ({@code C=8 · mla}, {@code C=8 · gqa}); after the last, one table with a row per level and
 * deployment, charts with a line per deployment (and a latency-throughput chart with the Pareto
 * frontier), and a sentence saying which deployment gives the most goodput under the SLO, and at which
 * concurrency.
 *
 * <p>Here both are embedded engines: "mla" an MLA MoE on PCIe GPUs (~60 tok/s for one stream, bound by
 * the interconnect as the batch grows), "gqa" a GQA dense model (~100 tok/s, scales to thousands). Point
 * them at real servers without touching the code:
 * {@code -Dllmbench.deployments=mla=http://gpu-node-1:8000;gqa=http://gpu-node-2:8000,model=llama-70b}.
 */
@Deployment(name = "mla", embeddedProfile = "mla-pcie")
@Deployment(name = "gqa", embeddedProfile = "gqa-dense")
class DeploymentComparisonBenchmarkTest {

  @ConcurrencySweep({1, 8, 32})
  @Workload(maxTokens = 8)
  @Slo(ttft = "500ms", tpot = "30ms", percentile = 90)
  void whichDeployment(SweepLevelResult level, DeploymentLevels atThisLoad) {
    assertThat(level).hasNoErrors();
    // Decided at each load once both are measured; fails only if gqa is slower beyond noise.
    assertThat(atThisLoad).deployment("gqa").isAtLeastAsFastAs("mla");
  }
}
