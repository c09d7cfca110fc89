package dev.llmbench.samples.realengine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.server.ServerStartup;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The suite starts the server itself, as it would start {@code vllm serve} or
 * {@code python -m sglang.launch_server}: llama-server with a ~300M-parameter model, which answers
 * 503 "Loading model" for about a second. LLMBench reads its log while waiting (the progress lines and the
 * report name the phase it is in), benchmarks it when ready and stops it when the run ends.
 */
@Tag("real-engine")
@LlmEndpoint(readyTimeout = "2m", readyPollInterval = "50ms")
@LaunchServer(command = {"bash", "../scripts/llama-server.sh", "run", "${port}", "1", "slow-load"})
class LlamaServerReadinessTest {

  @Test
  void waitsThroughTheRealLoadingPhase(EndpointInfo endpoint) {
    List<String> log = endpoint.readinessLog();
    assertThat(log).anySatisfy(line -> assertThat(line).contains("GET /health answered 503").contains("Loading model"));
    assertThat(log.get(log.size() - 1)).endsWith(" ready");
    assertThat(endpoint.model()).isEqualTo("llmbench-tiny"); // the alias, from /v1/models
    assertThat(endpoint.serverVersion()).isPresent();
  }

  @Test
  void knowsWhatTheServerWasDoingAndForHowLong(EndpointInfo endpoint) {
    ServerStartup startup = endpoint.startup();
    assertThat(startup.engine()).contains("llama.cpp");
    assertThat(startup.phases()).extracting(ServerStartup.Phase::name).contains("loading model");
    assertThat(startup.summary()).startsWith("llama.cpp: ").contains("loading model");
    // The client's wait started after the launch, so it is never longer than the time since launch.
    assertThat(startup.readySinceLaunch().orElseThrow()).isGreaterThanOrEqualTo(endpoint.timeToReady());
  }
}
