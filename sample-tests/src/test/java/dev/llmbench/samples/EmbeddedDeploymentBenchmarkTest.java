package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.AfterSweep;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EarlierLevels;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.Workload;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentFacts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What a team checks after every deployment change: is the model still right, and how fast is it at each
 * level of load. Here the endpoint is the embedded engine with the "mla-pcie" profile (a 1T MLA MoE on
 * PCIe GPUs); point it at a real server with {@code -Dllmbench.base-url=http://host:8000}.
 */
@LlmEndpoint(embeddedProfile = "mla-pcie")
@DeploymentFacts(gpus = "8 GPUs (simulated)", interconnect = DeploymentFacts.Interconnect.PCIE, tensorParallel = 8,
    attention = DeploymentFacts.Attention.MLA)
class EmbeddedDeploymentBenchmarkTest {

  @Test
  void knowsTheCapitalOfFrance(LlmClient llm) {
    assertThat(llm.chat("What is the capital of France? Answer in one sentence."))
        .contentContains("Paris");
  }

  @Test
  void writesAPrimeCheckingFunction(LlmClient llm) {
    assertThat(llm.chat("Write a Python function that checks whether a number is prime."))
        .codeBlock("python")
        .contains("def ")
        .contains("return");
  }

  /** One test per level, named C=1 ... C=32; the table and the scaling analysis print after the last. */
  @ConcurrencySweep({1, 2, 4, 8, 16, 32})
  @Workload(maxTokens = 32)
  @Slo(ttft = "1s", tpot = "60ms", percentile = 90)
  void throughputScalesWithLoad(SweepLevelResult level, EarlierLevels earlier) {
    assertThat(level)
        .hasNoErrors()
        .meetsSlo();
    // More load gives more throughput, up to C=16 here: each level against the one before it in the same
    // run, so what a busy machine costs both does not decide it (the profile gives 1.3x to 2x per step).
    earlier.last().filter(before -> level.concurrency() <= 16).ifPresent(before ->
        assertThat(level).outputThroughput().isGreaterThan(before.outputThroughput().perSecond()));
    assertThat(level).e2eLatency().p90().isLessThan(Duration.ofSeconds(5));
  }

  /** Once, after the last level: the sweep as a whole, as the analysis reads it (its own test in reports). */
  @AfterSweep("throughputScalesWithLoad")
  void scalesWithoutFallingOrFailing(SweepResult sweep) {
    assertThat(sweep).hasNoFindings(FindingKind.ERROR_GROWTH, FindingKind.THROUGHPUT_DROP);
    assertThat(sweep).scalingEfficiencyAt(4).isGreaterThan(0.5); // the profile gives about 88%
  }
}
