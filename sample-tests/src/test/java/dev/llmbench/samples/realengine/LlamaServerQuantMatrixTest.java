package dev.llmbench.samples.realengine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.deployments.ServeParam;
import dev.llmbench.drift.Drift;
import dev.llmbench.drift.DriftComparison;
import dev.llmbench.drift.Drifts;
import dev.llmbench.launch.LaunchServer;
import org.junit.jupiter.api.Tag;

/**
 * The seed's loop on a real engine: the same model in F16, Q8_0 and Q4_0 (quantised with {@code llama-quantize} by
 * {@code scripts/llama-server.sh prepare}), three llama-server candidates launched one after another on one port, each
 * waited for, swept and stopped before the next starts, each level sending the same 16 prompts greedy so that Q8_0 and
 * Q4_0 are compared with F16's replies ({@code @Drift}: docs/drift.md). The sweep's answer leads with the decision:
 * which candidate gives the most throughput (and at what share of the others'), what each costs in drift from F16, and
 * what each cost to start. A run killed part way and run again (scripts/matrix-real-engine.sh {@code resume-check})
 * reuses the candidates it measured completely, F16's replies with them, and still reports every candidate's drift.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8138", readyTimeout = "2m", readyPollInterval = "50ms")
@LaunchServer(command = {"bash", "../scripts/llama-server.sh", "run", "8138", "2", "${model}"}, stopGrace = "10s")
@ServeParam(name = "model", values = {"tiny-f16", "tiny-q8_0", "tiny-q4_0"}, labels = {"F16", "Q8_0", "Q4_0"})
class LlamaServerQuantMatrixTest {

  @ConcurrencySweep({1, 2})
  @Drift(path = "src/test/resources/drift/llama-prompts.jsonl", maxTokens = 32, ignoreEos = true, topLogprobs = 20)
  void quantisations(SweepLevelResult level, DeploymentLevels atThisLoad, Drifts drift) {
    assertThat(level.failed()).as("failed requests at " + level.label()).isZero();
    // Launched by the suite: its time from launch to ready, and the phases llama.cpp's log showed.
    assertThat(level.endpoint().startup().readySinceLaunch()).as("time to ready of " + level.label()).isPresent();
    assertThat(atThisLoad.of(level.endpoint().deployment().orElseThrow())).contains(level);
    if (!level.endpoint().deployment().orElseThrow().equals("Q4_0")) return;
    // Both quantised candidates compared with F16 on every prompt, with logprobs (measured now or reused: the same).
    assertThat(drift.all()).extracting(DriftComparison::candidate).containsExactly("Q8_0", "Q4_0");
    assertThat(drift.all()).allSatisfy(c -> {
      assertThat(c.prompts()).isEqualTo(16);
      assertThat(c.meanKld()).isPresent();
    });
    // Four bits drift further from F16 than eight, token by token.
    assertThat(drift.of("Q4_0").orElseThrow().meanKld().orElseThrow().estimate())
        .isGreaterThan(drift.of("Q8_0").orElseThrow().meanKld().orElseThrow().estimate());
  }
}
