package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.internal.embedded.EmbeddedServerMain;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.server.LaunchServer;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The suite starts the server as a process, waits for it, benchmarks it and stops it; a command that exits
 * at once fails within seconds with its last log lines. The server here is the embedded engine run as its
 * own JVM, so the test needs nothing installed; the real llama-server is launched the same way in
 * sample-tests (real-engine).
 */
class LaunchServerTests {

  /** {@code java -cp <this test JVM's classpath> ...EmbeddedServerMain}: a real OpenAI server process. */
  static String embeddedServerCommand(String... extra) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return String.join(" ", Stream.concat(Stream.of(java, "-cp", System.getProperty("java.class.path"),
        EmbeddedServerMain.class.getName(), "--port", "${port}"), Stream.of(extra)).toList());
  }

  @Test
  void aLaunchedServerIsWaitedForBenchmarkedAndStopped() throws IOException {
    BenchKit.Run run = BenchKit.run(LaunchedTestCases.class,
        "llmbench.launch.command", embeddedServerCommand("--profile", "instant", "--startup-delay", "PT1S"));
    run.assertAllPass(2);
    Path log;
    try (Stream<Path> files = Files.list(run.reportDir())) {
      log = files.filter(p -> p.getFileName().toString().matches("server-\\d+\\.log")).findFirst().orElseThrow();
    }
    assertThat(Files.readString(log)).as("the server's own output, captured").contains("LLMBench embedded engine");
    Matcher port = Pattern.compile("server-(\\d+)\\.log").matcher(log.getFileName().toString());
    assertThat(port.matches()).isTrue();
    // Stopped when the run ended: nothing answers on its port any more.
    assertThat(refused(Integer.parseInt(port.group(1)))).as("the port after the run").isTrue();
  }

  static boolean refused(int port) {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  @LlmEndpoint(readyPollInterval = "100ms")
  @LaunchServer(command = "set by the test's configuration")
  static class LaunchedTestCases {
    @Test
    void readyAfterItsStartupDelay(EndpointInfo endpoint) {
      // The engine answers 503 for 1 s after it starts; the JVM itself takes a while to start before that.
      assertThat(endpoint.url()).startsWith("http://127.0.0.1:");
      assertThat(endpoint.readinessLog()).anyMatch(l -> l.contains("503") && l.contains("Loading model"));
      Duration sinceLaunch = endpoint.startup().readySinceLaunch().orElseThrow();
      assertThat(sinceLaunch).as("since launch, against the client's wait").isGreaterThanOrEqualTo(endpoint.timeToReady())
          .isGreaterThan(Duration.ofSeconds(1));
    }

    @ConcurrencySweep(2)
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  @Test
  void aCommandThatExitsAtOnceFailsInSecondsWithItsLastLines() {
    long start = System.nanoTime();
    BenchKit.run(ExitingTestCases.class).tests().assertThatEvents()
        .haveExactly(1, event(test(), finishedWithFailure(instanceOf(EndpointNotReadyException.class), message(m ->
            m.startsWith("LLM endpoint") && m.contains("cannot become ready") && m.contains("exit code 3")
                && m.contains("fatal: no GPU found") && m.contains("loading weights")))))
        .haveExactly(1, event(test(), finishedWithFailure(message(m -> m.startsWith("not waited for again")))));
    // Limit 20 minutes by default: the exit is seen at the next probe, not at the limit.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @LlmEndpoint(readyPollInterval = "200ms")
  @LaunchServer(command = {"sh", "-c", "echo loading weights; echo 'fatal: no GPU found' >&2; exit 3", "${port}"})
  static class ExitingTestCases {
    @Test
    void ready(LlmClient llm) {}

    @Test
    void second(LlmClient llm) {}
  }

  @Test
  void aCommandWithoutPortOrBaseUrlIsAConfigurationProblemNamingTheFix() {
    BenchKit.run(NoPortTestCases.class).tests().assertThatEvents()
        .haveExactly(1, event(test("ready"), finishedWithFailure(message(m -> m.contains("has no ${port}")
            && m.contains("llmbench.base-url")))));
  }

  @LlmEndpoint
  @LaunchServer(command = {"sleep", "60"})
  static class NoPortTestCases {
    @Test
    void ready(LlmClient llm) {}
  }

}
