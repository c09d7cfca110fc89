package dev.llmbench.samples.realengine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.deployments.ServeParam;
import dev.llmbench.launch.LaunchServer;
import org.junit.jupiter.api.Tag;

/**
 * The seed's loop on a real engine: the same model in F16, Q8_0 and Q4_0 (quantised with {@code llama-quantize} by
 * {@code scripts/matrix-real-engine.sh}), three llama-server candidates launched one after another on one port, each
 * waited for, swept and stopped before the next starts. The sweep's statement leads with which candidate gives the
 * most throughput, at what share of the others', and what each cost to start; a run killed part way and run again
 * (that script's {@code resume-check}) reuses the candidates it measured completely.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8138", readyTimeout = "2m", readyPollInterval = "50ms")
@LaunchServer(command = {"bash", "../scripts/llama-server.sh", "run", "8138", "2", "${model}"}, stopGrace = "10s")
@ServeParam(name = "model", values = {"tiny-f16", "tiny-q8_0", "tiny-q4_0"}, labels = {"F16", "Q8_0", "Q4_0"})
class LlamaServerQuantMatrixTest {

  @ConcurrencySweep({1, 2})
  @Workload(maxTokens = 16)
  @Measurement(requests = 16)
  void quantisations(SweepLevelResult level, DeploymentLevels atThisLoad) {
    assertThat(level.failed()).as("failed requests at " + level.label()).isZero();
    // Launched by the suite: its time from launch to ready, and the phases llama.cpp's log showed.
    assertThat(level.endpoint().startup().readySinceLaunch()).as("time to ready of " + level.label()).isPresent();
    assertThat(atThisLoad.of(level.endpoint().deployment().orElseThrow())).contains(level);
  }
}
