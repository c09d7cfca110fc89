package dev.llmbench.samples.container;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.launch.LaunchContainer;
import dev.llmbench.server.ServerStartup;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The suite starts its engine in a container, as a team starts vLLM, SGLang or Ollama from their images:
 * here llama.cpp's llama-server from an image built on this machine ({@code scripts/containers.sh image}
 * imports the llama.cpp root as {@code llmbench/llama-server:local}; no registry is needed). LLMBench starts
 * it through Testcontainers on the host network, reads the startup phases from the container's log while
 * waiting, runs the sweep, and stops and removes the container when the run ends. Run with
 * {@code -Pcontainer} ({@code scripts/containers.sh ci} does it all); see docs/containers.md for vLLM, SGLang
 * and Ollama with GPUs.
 */
@Tag("container")
@LlmEndpoint(readyTimeout = "2m", readyPollInterval = "100ms")
@LaunchContainer(image = "llmbench/llama-server:local",
    command = {"/usr/bin/llama-server", "-m", "/opt/llmbench/tiny.gguf", "--host", "127.0.0.1", "--port", "${port}",
        "-np", "2", "-c", "1024", "-t", "1", "--metrics", "--alias", "llmbench-tiny", "--no-webui"},
    stopGrace = "10s")
@Workload(maxTokens = 32, inputTokens = 16)
@Measurement(requests = 8)
class LlamaServerContainerTest {

  @Test
  void knowsWhatTheContainerWasDoingWhileItStarted(EndpointInfo endpoint) {
    ServerStartup startup = endpoint.startup();
    assertThat(startup.engine()).contains("llama.cpp");
    assertThat(startup.phases()).extracting(ServerStartup.Phase::name).contains("loading model");
    assertThat(startup.summary()).startsWith("llama.cpp: ");
    // Timed from the container's start, which is before the client's wait began.
    assertThat(startup.readySinceLaunch().orElseThrow()).isGreaterThanOrEqualTo(endpoint.timeToReady());
    assertThat(endpoint.model()).isEqualTo("llmbench-tiny");
  }

  @ConcurrencySweep({1, 2})
  void sweep(SweepLevelResult level) {
    // The counts the client saw equal llama-server's own Prometheus counters: the sweep reached the container.
    assertThat(level).hasNoErrors().hasServerTokenCountsMatching();
  }
}
