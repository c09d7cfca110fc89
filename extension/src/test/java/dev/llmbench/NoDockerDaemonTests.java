package dev.llmbench;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.server.LaunchContainer;
import dev.llmbench.testkit.BenchKit;
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
    BenchKit.run(InAContainer.class).tests().assertThatEvents()
        .haveExactly(1, event(test(), displayName("C=1"), finishedWithFailure(instanceOf(EndpointNotReadyException.class),
            message(m -> m.startsWith("the server could not be launched: no Docker daemon answers, so the container "
                + "llmbench/llama-server:local cannot start") && m.contains("Start the Docker daemon")
                && m.contains("DOCKER_HOST")))))
        .haveExactly(1, event(test(), displayName("C=2"), finishedWithFailure(message(m -> m.startsWith("not waited for again")))));
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
