package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With no Docker daemon, a {@code @LaunchContainer} suite fails before its first level, saying how to start
 * one. Testcontainers looks for a daemon once per JVM (and at /var/run/docker.sock whatever DOCKER_HOST says),
 * so this runs in a build of its own while no daemon runs: {@code scripts/containers.sh ci} does that first.
 */
@Tag("container-no-daemon")
class NoDockerDaemonTests {

  @Test
  void withoutADaemonTheSuiteFailsBeforeTheFirstLevelSayingHowToStartOne() {
    assumeFalse(Files.exists(Path.of("/var/run/docker.sock")), "a Docker daemon's socket is there: run this with none");
    // In parentheses, Testcontainers' own words and where it looked: DOCKER_HOST's and the socket's to say.
    String noDaemon = "the server could not be launched: no Docker daemon answers, so the container "
        + "llmbench/llama-server:local cannot start: Testcontainers found no working Docker environment ({*}). Start the "
        + "Docker daemon (sudo systemctl start docker, or dockerd; in this project's CI: bash scripts/containers.sh start) "
        + "or set DOCKER_HOST to one that runs, then check with docker info";
    BenchKit.Run run = BenchKit.run(InAContainer.class);
    assertThat(run).level("C=1").failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(noDaemon));
    assertThat(run).level("C=2").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("not waited for again: " + noDaemon));
  }

  @LlmEndpoint
  @LaunchContainer(image = "llmbench/llama-server:local", command = {"--port", "${port}"})
  static class InAContainer {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 1)
    void sweep(SweepLevelResult level) {}
  }
}
