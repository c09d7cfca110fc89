package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.Container;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.server.ServerStartup;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/**
 * A suite whose engine runs in a container, on the image {@code scripts/containers.sh image} builds from the
 * llama.cpp root: it is waited for with its startup phases and its log, and removed after the run; and each
 * fault (an image that is not there, a command that exits, a port already taken) fails before the first
 * level, with the container's last log lines where one ran and the fix. Tagged container: needs the daemon
 * and the image ({@code mvn -Pcontainer test}, which {@code scripts/containers.sh ci} runs).
 */
@Tag("container")
class LaunchContainerTests {

  static final String IMAGE = "llmbench/llama-server:local";

  /** Every run of these tests leaves no container behind, whatever it did. */
  @AfterEach
  void noContainerIsLeft() {
    List<Container> left = DockerClientFactory.instance().client().listContainersCmd().withShowAll(true).exec();
    assertThat(left).extracting(Container::getImage).as("containers after the run").isEmpty();
  }

  @Test
  void aContainerIsWaitedForWithItsPhasesAndItsLogAndRemovedAfterTheRun() throws IOException {
    BenchKit.Run run = BenchKit.run(Served.class);
    assertThat(run).passed("ready(EndpointInfo)", "C=1");
    Path log;
    try (Stream<Path> files = Files.list(run.reportDir())) {
      log = files.filter(p -> p.getFileName().toString().matches("container-\\d+\\.log")).findFirst().orElseThrow();
    }
    assertThat(Files.readString(log)).as("the container's own output, in its log file").contains("llama_server: listening on");
    int port = Integer.parseInt(log.getFileName().toString().replaceAll("\\D", ""));
    assertThat(LaunchServerTests.refused(port)).as("its port after the run").isTrue();
  }

  @LlmEndpoint(readyPollInterval = "100ms", readyTimeout = "1m")
  @LaunchContainer(image = IMAGE, command = {"/usr/bin/llama-server", "-m", "/opt/llmbench/tiny.gguf", "--host", "127.0.0.1",
      "--port", "${port}", "-t", "1", "--no-webui"}, stopGrace = "10s")
  static class Served {
    @Test
    void ready(EndpointInfo endpoint) {
      assertThat(endpoint.startup().engine()).contains("llama.cpp");
      assertThat(endpoint.startup().phases()).extracting(ServerStartup.Phase::name).contains("loading model");
      assertThat(endpoint.startup().readySinceLaunch().orElseThrow()).isGreaterThanOrEqualTo(endpoint.timeToReady());
    }

    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  @Test
  void anImageThatIsNotThereFailsBeforeTheFirstLevelSayingHowToGetIt() {
    // In parentheses, the daemon's own words on the pull.
    assertThat(BenchKit.run(MissingImage.class)).level("C=1").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("the server could not be launched: the image llmbench/no-such-image:missing "
            + "is not on this Docker host and could not be pulled ({*}). Pull it (docker pull "
            + "llmbench/no-such-image:missing), build or import it (docker build, docker import), or name an image that "
            + "docker images lists"));
  }

  @LlmEndpoint
  @LaunchContainer(image = "llmbench/no-such-image:missing", command = {"--port", "${port}"})
  static class MissingImage {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 1)
    void sweep(SweepLevelResult level) {}
  }

  /** llama-server's own exit: the model file is not in the image. Seen at the next probe, not at the 20-minute limit. */
  @Test
  void aContainerWhoseCommandExitsFailsInSecondsWithItsLastLogLines() {
    long start = System.nanoTime();
    BenchKit.Run run = BenchKit.run(Exiting.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    // Open: the container's id, the startup phases read so far, and llama.cpp's lines between the two that matter.
    String exited = "LLM endpoint http://127.0.0.1:{n}/ cannot become ready: the container {*} (" + IMAGE
        + " /usr/bin/llama-server -m /opt/llmbench/missing.gguf --host 127.0.0.1 --port {n} -t 1) exited with exit code 1 "
        + "{duration} after launch, before it was ready ({*}). Last {n} lines of its log "
        + run.reportDir().resolve("container-{n}.log") + ":\n{*}  | {*}failed to load model '/opt/llmbench/missing.gguf'"
        + "{*}\n  | {*}exiting due to model loading error";
    assertThat(run).level("C=1").failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(exited));
    assertThat(run).level("C=2").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("not waited for again: " + exited));
  }

  @LlmEndpoint(readyPollInterval = "200ms")
  @LaunchContainer(image = IMAGE, command = {"/usr/bin/llama-server", "-m", "/opt/llmbench/missing.gguf", "--host",
      "127.0.0.1", "--port", "${port}", "-t", "1"})
  static class Exiting {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    void sweep(SweepLevelResult level) {}
  }

  /** Something already serves on the fixed port: the wait would measure it, so no container starts. */
  @Test
  void aPortAlreadyTakenFailsBeforeAnyContainerStarts() throws IOException {
    try (ServerSocket other = new ServerSocket(18221, 50, InetAddress.getLoopbackAddress())) {
      BenchKit.Run run = BenchKit.run(FixedPort.class, "llmbench.base-url", "http://127.0.0.1:18221",
          "llmbench.container.command", "/usr/bin/llama-server -m /opt/llmbench/tiny.gguf --host 127.0.0.1 --port 18221 -t 1");
      assertThat(run).level("C=1").failedWith(EndpointNotReadyException.class).hasMessage("the server could not be "
          + "launched: port 18221 on 127.0.0.1 is already taken: something listens there before the container starts, so "
          + "its server could not bind it and the readiness wait would measure the other one. Stop what listens there "
          + "(ss -ltnp 'sport = :18221' shows it), or put ${port} in the container's command (and leave llmbench.base-url "
          + "unset) so that LLMBench picks a free port; no container was started");
    }
  }

  /**
   * The port is taken after the check (here: bound by a socket that does not listen, so the check finds it
   * free): llama-server cannot bind it and exits, and the message shows its line and says the port is taken.
   */
  @Test
  void aPortTakenAfterTheCheckFailsWithTheEnginesBindErrorAndTheFix() throws IOException {
    try (Socket bound = new Socket()) {
      bound.setReuseAddress(false);
      bound.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 18222));
      BenchKit.Run run = BenchKit.run(FixedPort.class, "llmbench.base-url", "http://127.0.0.1:18222",
          "llmbench.container.command", "/usr/bin/llama-server -m /opt/llmbench/tiny.gguf --host 127.0.0.1 --port 18222 -t 1");
      // Open: the container's id, the startup phases read so far, and llama.cpp's lines around its bind error.
      assertThat(run).level("C=1").failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(
          "LLM endpoint http://127.0.0.1:18222/ cannot become ready: the container {*} (" + IMAGE + " /usr/bin/llama-server "
              + "-m /opt/llmbench/tiny.gguf --host 127.0.0.1 --port 18222 -t 1) exited with exit code 1 {duration} after "
              + "launch, before it was ready ({*}). Last {n} lines of its log " + run.reportDir().resolve("container-18222.log")
              + ":\n{*}  | {*}couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 18222\n{*}\nIts port is taken by "
              + "another process (the container shares this host's network): stop what listens there (ss -ltnp shows it), "
              + "or let LLMBench pick a free port with ${port} in the command."));
    }
  }

  @LlmEndpoint(readyPollInterval = "200ms")
  @LaunchContainer(image = IMAGE, command = "set by the test's configuration")
  static class FixedPort {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 1)
    void sweep(SweepLevelResult level) {}
  }
}
