package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.deployments.ServeParam;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.launch.LaunchServer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A matrix of candidates the suite launches itself, one after another on one port, as {@code vllm bench sweep serve}
 * restarts {@code vllm serve} for each combination of serve flags: here the embedded engine as a process of its own,
 * once per profile. Each candidate is started, waited for, run at every level, and stopped before the next starts;
 * the sweep then compares them (which gives the most throughput, and what each cost to start). Run it again without
 * cleaning {@code target/} and the candidates measured completely are reused, not launched again.
 *
 * <p>For vLLM: {@code @LaunchServer(command = {"vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--port", "8139"})} and
 * {@code @ServeParam(name = "max-num-seqs", values = {"64", "256"})}: see docs/deployments.md.
 */
@LlmEndpoint(baseUrl = "http://127.0.0.1:8139", readyPollInterval = "100ms")
@LaunchServer(command = {"${java}", "-cp", "${classpath}", "dev.llmbench.samples.CandidateMatrixBenchmarkTest$EngineProcess",
    "--port", "8139"}, stopGrace = "5s")
@ServeParam(name = "profile", values = {"gqa-dense", "gqa-int4"})
class CandidateMatrixBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Workload(maxTokens = 16)
  @Measurement(requests = 12)
  void whichProfile(SweepLevelResult level, DeploymentLevels atThisLoad) {
    assertThat(level).hasNoErrors();
    // Every candidate measured so far at this load; the first ran all its levels before the second started.
    org.assertj.core.api.Assertions.assertThat(atThisLoad.of("profile-gqa-dense")).isPresent();
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
