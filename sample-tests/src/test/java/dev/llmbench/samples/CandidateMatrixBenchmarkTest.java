package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.deployments.ServeParam;
import dev.llmbench.drift.Drift;
import dev.llmbench.drift.DriftAssert;
import dev.llmbench.drift.Drifts;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.launch.LaunchServer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A matrix of candidates the suite launches itself, one after another on one port, as {@code vllm bench sweep serve}
 * restarts {@code vllm serve} for each combination of serve flags: here the embedded engine as a process of its own,
 * once per profile, standing for one model served in BF16 and quantised to INT4 (a faster profile whose greedy replies
 * part from the BF16 one's at token 12, as a quantised model's do). Each candidate is started, waited for, run at every
 * level, and stopped before the next starts; every level sends the same prompts greedy ({@code @Drift}), so the sweep's
 * answer reads as a decision: which candidate gives the most throughput, what it costs in drift from BF16, and what each
 * cost to start. Run it again without cleaning {@code target/} and the candidates measured completely are reused, not
 * launched again, their drift reported from the replies kept beside the resume ledger.
 *
 * <p>For vLLM: {@code @LaunchServer(command = {"vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--port", "8139"})} and
 * {@code @ServeParam(name = "max-num-seqs", values = {"64", "256"})}: see docs/deployments.md.
 */
@LlmEndpoint(baseUrl = "http://127.0.0.1:8139", readyPollInterval = "100ms")
@LaunchServer(command = {"${java}", "-cp", "${classpath}", "dev.llmbench.samples.CandidateMatrixBenchmarkTest$EngineProcess",
    "--port", "8139"}, stopGrace = "5s")
@ServeParam(name = "profile", values = {"gqa-dense", "gqa-int4+diverge=12"}, labels = {"bf16", "int4"})
class CandidateMatrixBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Drift(prompts = 12, maxTokens = 32)   // the reference: the first candidate, bf16
  void whichProfile(SweepLevelResult level, DeploymentLevels atThisLoad, Drifts drift) {
    assertThat(level).hasNoErrors();
    // Every candidate measured so far at this load; the first ran all its levels before the second started.
    org.assertj.core.api.Assertions.assertThat(atThisLoad.of("bf16")).isPresent();
    // INT4 keeps BF16's first 12 tokens of every reply, and its most likely token stays BF16's at 12 of the 13 it is
    // compared at: a bound a regression in the quantisation would break.
    if (level.endpoint().deployment().orElseThrow().equals("int4")) {
      DriftAssert.assertThat(drift).candidate("int4").commonPrefixAtLeast(12).top1AgreementAtLeast(0.9);
    }
  }

  /** The embedded engine as a server process: {@code --port P --profile NAME}, as a real engine's command line. */
  public static final class EngineProcess {
    private EngineProcess() {}

    public static void main(String[] args) throws InterruptedException {
      int port = 0;
      String profile = "gqa-dense";
      for (int i = 0; i + 1 < args.length; i += 2) {
        if (args[i].equals("--port")) port = Integer.parseInt(args[i + 1]);
        if (args[i].equals("--profile")) profile = args[i + 1];
      }
      String name = profile;
      EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.named(name)
          .orElseThrow(() -> new IllegalArgumentException("no profile " + name)), port, Duration.ZERO);
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
      System.out.println("serving " + name + " at " + server.baseUrl());
      new CountDownLatch(1).await();
    }
  }
}
