package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.EngineMain;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The suite starts the server as a process, waits for it, benchmarks it and stops it; a command that exits
 * at once fails within seconds with its last log lines. The server here is the embedded engine run as its
 * own JVM, so the test needs nothing installed; the real llama-server is launched the same way in
 * sample-tests (real-engine).
 */
class LaunchServerTests {

  /** {@code java -cp <this test JVM's classpath> ...EngineMain}: a real OpenAI server process. */
  static String embeddedServerCommand(String... extra) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return String.join(" ", Stream.concat(Stream.of(java, "-cp", System.getProperty("java.class.path"),
        EngineMain.class.getName(), "--port", "${port}"), Stream.of(extra)).toList());
  }

  @Test
  void aLaunchedServerIsWaitedForBenchmarkedAndStopped() throws IOException {
    BenchKit.Run run = BenchKit.run(LaunchedTestCases.class,
        "llmbench.launch.command", embeddedServerCommand("--profile", "instant", "--startup-delay", "PT1S"));
    assertThat(run).passed("readyAfterItsStartupDelay(EndpointInfo)", "C=2");
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
      // The engine answers 503 for 1 s once it listens; the JVM itself takes a while to start before that.
      assertThat(endpoint.url()).startsWith("http://127.0.0.1:");
      assertThat(endpoint.readinessLog()).anySatisfy(l -> assertThat(l).contains("503").contains("Loading model"));
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
    BenchKit.Run run = BenchKit.run(ExitingTestCases.class);
    // Limit 20 minutes by default: the exit is seen at the next probe, not at the limit.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    String exited = "LLM endpoint http://127.0.0.1:{n}/ cannot become ready: the server `sh -c 'echo loading weights; "
        + "echo '\\''fatal: no GPU found'\\'' >&2; exit 3' {n}` exited with exit code 3 {duration} after launch, before it "
        + "was ready. Last 2 lines of its log " + run.reportDir().resolve("server-{n}.log") + ":\n"
        + "  | loading weights\n"
        + "  | fatal: no GPU found";
    assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern(exited));
    // The second test does not wait again: it fails at once with the first outcome.
    assertThat(run).test("second(LlmClient)").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("not waited for again: " + exited));
  }

  @LlmEndpoint(readyPollInterval = "200ms")
  @TestMethodOrder(MethodOrderer.MethodName.class) // ready waits, second is told the outcome
  @LaunchServer(command = {"sh", "-c", "echo loading weights; echo 'fatal: no GPU found' >&2; exit 3", "${port}"})
  static class ExitingTestCases {
    @Test
    void ready(LlmClient llm) {}

    @Test
    void second(LlmClient llm) {}
  }

  @Test
  void aCommandWithoutPortOrBaseUrlIsAConfigurationProblemNamingTheFix() {
    assertThat(BenchKit.run(NoPortTestCases.class)).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class)
        .hasMessage("the server could not be launched: the launch command has no ${port} and llmbench.base-url is unset, "
            + "so LLMBench cannot know where the server listens; add --port ${port} (or the engine's own flag) to the "
            + "command, or set llmbench.base-url");
  }

  @LlmEndpoint
  @LaunchServer(command = {"sleep", "60"})
  static class NoPortTestCases {
    @Test
    void ready(LlmClient llm) {}
  }

}
