package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.llmbench.internal.startup.Engine;
import dev.llmbench.internal.startup.PhaseHistory;
import dev.llmbench.internal.startup.ServerExitedException;
import dev.llmbench.internal.startup.ServerLaunchException;
import dev.llmbench.internal.startup.StartupPhase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launches small shell commands as stand-ins for inference servers. Each test has a hard timeout, so a
 * stop that hangs fails the test instead of the build.
 */
@Timeout(30)
class LaunchedServerTests {

  private static final Duration GRACE = Duration.ofMillis(500);

  @TempDir
  Path dir;

  private static LaunchCommand sh(String script) {
    return LaunchCommand.of("sh", "-c", script);
  }

  @Test
  void outputOfBothStreamsGoesToTheLogAndTheStopIsSigterm() throws IOException {
    Path log = dir.resolve("reports/server.log");
    try (LaunchedServer server = LaunchedServer.launch(sh("echo to-stdout; echo to-stderr >&2; exec sleep 30"), log, 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> server.recentLines().size() == 2);
      assertThat(server.recentLines()).containsExactlyInAnyOrder("to-stdout", "to-stderr");
      server.checkRunning();
      ServerProcess.Stopped stopped = server.stop();
      assertThat(stopped.ending()).isEqualTo(ServerProcess.Ending.TERMINATED);
      assertThat(stopped.exitCode()).hasValue(143); // 128 + SIGTERM
      assertThat(stopped.toString()).startsWith("stopped with SIGTERM in ");
      assertThat(server.isRunning()).isFalse();
    }
    assertThat(Files.readAllLines(log)).containsExactlyInAnyOrder("to-stdout", "to-stderr");
  }

  @Test
  void serverThatExitsAtOnceFailsWithExitCodeLogPathAndLastLines() {
    Path log = dir.resolve("server.log");
    long begin = System.nanoTime();
    try (LaunchedServer server = LaunchedServer.launch(
        sh("echo 'loading model'; echo 'error: failed to open /models/x.gguf: No such file' >&2; exit 3"), log, 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> !server.isRunning());
      assertThatThrownBy(server::checkRunning)
          .isInstanceOf(ServerExitedException.class)
          .hasMessageStartingWith("the server `sh -c 'echo '\\''loading model'\\''; ")
          .hasMessageContaining("exited with exit code 3 ")
          .hasMessageContaining("before it was ready")
          .hasMessageContaining("Last 2 lines of its log " + log + ":\n  | loading model\n"
              + "  | error: failed to open /models/x.gguf: No such file")
          .satisfies(e -> assertThat(((ServerExitedException) e).exitCode()).isEqualTo(3));
      assertThat(server.stop().ending()).isEqualTo(ServerProcess.Ending.EXITED_BEFORE_STOP);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void lastLineWithoutLineEndIsInTheMessage() {
    try (LaunchedServer server = LaunchedServer.launch(sh("printf 'first\\nno line end'; exit 1"), dir.resolve("s.log"), 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> !server.isRunning());
      assertThatThrownBy(server::checkRunning).hasMessageEndingWith("  | first\n  | no line end");
    }
  }

  @Test
  void messageKeepsOnlyTheLastLines() {
    try (LaunchedServer server = LaunchedServer.launch(sh("for i in 1 2 3 4 5 6 7 8 9; do echo line $i; done; exit 1"),
        dir.resolve("s.log"), 3, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> !server.isRunning());
      assertThatThrownBy(server::checkRunning).hasMessageEndingWith("Last 3 lines of its log " + dir.resolve("s.log")
          + ":\n  | line 7\n  | line 8\n  | line 9");
    }
  }

  @Test
  void silentServerSaysItWroteNothing() {
    try (LaunchedServer server = LaunchedServer.launch(sh("exit 2"), dir.resolve("s.log"), 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> !server.isRunning());
      assertThatThrownBy(server::checkRunning).hasMessageContaining("exit code 2").hasMessageContaining("wrote nothing");
    }
  }

  @Test
  void serverThatIgnoresSigtermIsKilledAfterTheGracePeriod() {
    Path log = dir.resolve("s.log");
    try (LaunchedServer server = LaunchedServer.launch(sh("trap '' TERM; echo started; while true; do sleep 0.1; done"), log, 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> server.recentLines().contains("started"));
      long begin = System.nanoTime();
      ServerProcess.Stopped stopped = server.stop();
      Duration took = Duration.ofNanos(System.nanoTime() - begin);
      assertThat(stopped.ending()).isEqualTo(ServerProcess.Ending.KILLED);
      assertThat(stopped.exitCode()).hasValue(137); // 128 + SIGKILL
      assertThat(took).isGreaterThanOrEqualTo(GRACE).isLessThan(GRACE.plus(ServerProcess.KILL_WAIT));
      assertThat(server.isRunning()).isFalse();
    }
  }

  @Test
  void childOfAShellWrapperIsStoppedToo() throws IOException {
    Path pidFile = dir.resolve("child.pid");
    // The shell cannot exec the server (something follows it), as in a wrapper script.
    try (LaunchedServer server = LaunchedServer.launch(sh("sleep 60 & echo $! > '" + pidFile + "'; wait $!; echo after"),
        dir.resolve("s.log"), 10, GRACE)) {
      ProcessHandle child = awaitChild(pidFile);
      assertThat(server.stop().ending()).isIn(ServerProcess.Ending.TERMINATED, ServerProcess.Ending.KILLED);
      await().atMost(Duration.ofSeconds(5)).until(() -> !ServerProcess.running(child));
    }
  }

  @Test
  void childLeftBehindByAnExitedWrapperIsStoppedToo() throws IOException {
    Path pidFile = dir.resolve("child.pid");
    Path go = dir.resolve("go");
    // The wrapper exits once the test has looked at it, leaving its child to init.
    String script = "sleep 60 & echo $! > '" + pidFile + "'; while [ ! -f '" + go + "' ]; do sleep 0.05; done";
    try (LaunchedServer server = LaunchedServer.launch(sh(script), dir.resolve("s.log"), 10, GRACE)) {
      ProcessHandle child = awaitChild(pidFile);
      assertThat(server.isRunning()).isTrue(); // as a readiness probe does: notes the child while the wrapper lives
      Files.createFile(go);
      await().atMost(Duration.ofSeconds(10)).until(() -> !server.isRunning());
      assertThat(ServerProcess.running(child)).isTrue();
      assertThat(server.stop().ending()).isEqualTo(ServerProcess.Ending.TERMINATED);
      await().atMost(Duration.ofSeconds(5)).until(() -> !ServerProcess.running(child));
    }
  }

  @Test
  void workingDirectoryAndEnvironmentReachTheServer() throws IOException {
    Path work = Files.createDirectories(dir.resolve("work"));
    LaunchCommand command = sh("pwd; echo \"$LLMBENCH_TEST_VALUE\"; echo \"unbuffered=$PYTHONUNBUFFERED\"; exec sleep 30")
        .inDirectory(work).withEnvironment(Map.of("LLMBENCH_TEST_VALUE", "from-env"));
    try (LaunchedServer server = LaunchedServer.launch(command, dir.resolve("s.log"), 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> server.recentLines().size() == 3);
      assertThat(server.recentLines()).containsExactly(work.toRealPath().toString(), "from-env", "unbuffered=1");
    }
  }

  @Test
  void missingProgramFailsAtLaunchNamingIt() {
    assertThatThrownBy(() -> LaunchedServer.launch(LaunchCommand.of("no-such-llm-server-binary", "--port", "1"), dir.resolve("s.log")))
        .isInstanceOf(ServerLaunchException.class)
        .hasMessageStartingWith("could not start the server `no-such-llm-server-binary --port 1`")
        .hasMessageContaining("on the PATH");
  }

  @Test
  void launchedServerIsTimedFromLaunchAndItsPhasesStartWithStarting() {
    try (LaunchedServer server = LaunchedServer.launch(sh("sleep 0.3; echo 'srv    load_model: loading model '\\''/m.gguf'\\'''; exec sleep 30"),
        dir.resolve("s.log"), 10, GRACE)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> server.phases().current().equals(Optional.of(StartupPhase.LOADING_MODEL)));
      PhaseHistory phases = server.phases();
      assertThat(phases.engine()).contains(Engine.LLAMA_CPP);
      assertThat(phases.spans().get(0).phase()).isEqualTo(StartupPhase.STARTING);
      // The echo came after a 0.3 s sleep: the starting phase cannot be shorter.
      assertThat(phases.spans().get(0).time()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
      assertThat(server.sinceLaunch()).isGreaterThanOrEqualTo(phases.spans().get(0).time());
    }
  }

  private static ProcessHandle awaitChild(Path pidFile) throws IOException {
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    return ProcessHandle.of(pid).orElseThrow();
  }
}
