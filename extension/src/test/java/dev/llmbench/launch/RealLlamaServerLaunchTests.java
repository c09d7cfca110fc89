package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmbench.internal.startup.Engine;
import dev.llmbench.internal.startup.EngineTiming;
import dev.llmbench.internal.startup.PhaseHistory;
import dev.llmbench.internal.startup.PhaseSpan;
import dev.llmbench.internal.startup.ServerExitedException;
import dev.llmbench.internal.startup.StartupPhase;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launches the real llama-server (Debian's llama.cpp-tools in the chroot that scripts/llama-server.sh
 * prepares; LLAMA_ROOT names another root) with the slow-load model, reads its phases while waiting for
 * {@code /health}, and stops it. Skipped without root or without the prepared root.
 */
@Tag("real-engine")
@Timeout(120)
class RealLlamaServerLaunchTests {

  private static Path root;

  @TempDir
  Path dir;

  @BeforeAll
  static void needsThePreparedRoot() {
    String configured = System.getenv("LLAMA_ROOT");
    root = (configured != null ? Path.of(configured) : Path.of(System.getProperty("user.dir")).resolve("../.llama/root"))
        .toAbsolutePath().normalize();
    assumeTrue("root".equals(System.getProperty("user.name")), "chroot needs root");
    assumeTrue(Files.isExecutable(root.resolve("usr/bin/llama-server")) && Files.isRegularFile(root.resolve("opt/llmbench/slow-load.gguf")),
        "no llama-server root at " + root + ": run scripts/llama-server.sh prepare, or set LLAMA_ROOT");
  }

  @Test
  void launchedLlamaServerShowsItsLoadPhaseWhileLoadingAndStopsOnSigterm() throws IOException, InterruptedException {
    // A load is slow only from disk: just after `prepare` wrote it, the 600 MB model is in the page cache, and it
    // mapped in less than the log follower's read, so the phase read 0 s on a quiet machine. Evict it first.
    evictFromPageCache("/opt/llmbench/slow-load.gguf");
    int port = freePort();
    LaunchCommand command = llamaServer("/opt/llmbench/slow-load.gguf").resolve(Map.of("port", Integer.toString(port)));
    List<String> progress = new ArrayList<>();
    try (LaunchedServer server = LaunchedServer.launch(command, dir.resolve("llama-server.log"), 30, Duration.ofSeconds(10))) {
      // What the readiness wait will do: at each probe, fail fast if it died, note the phase for progress lines.
      await().atMost(Duration.ofSeconds(90)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).until(() -> {
        server.checkRunning();
        String line = server.phases().toString();
        if (progress.isEmpty() || !progress.get(progress.size() - 1).equals(line)) progress.add(line);
        return health(port) == 200;
      });
      Duration clientSawReady = server.sinceLaunch();
      // The log line may reach the file a moment after /health turns 200.
      await().atMost(Duration.ofSeconds(5)).until(() -> server.phases().listening());
      PhaseHistory phases = server.phases();
      System.out.printf("[real llama-server] ready for the client %s after launch; phases: %s%n  seen while waiting: %s%n",
          PhaseHistory.seconds(clientSawReady), phases.describe(), progress);

      assertThat(phases.engine()).contains(Engine.LLAMA_CPP);
      assertThat(phases.spans().stream().map(PhaseSpan::phase).toList()).containsExactly(StartupPhase.STARTING, StartupPhase.LOADING_MODEL,
          StartupPhase.WARMING_UP, StartupPhase.LISTENING);
      assertThat(phases.timeIn(StartupPhase.LOADING_MODEL)).isPositive();
      // llama.cpp's own clock says when it listened: no later than the client saw it ready, plus the log poll.
      EngineTiming listened = phases.engineTimings().get(phases.engineTimings().size() - 1);
      assertThat(listened.what()).isEqualTo("listening after");
      assertThat(listened.took()).isPositive().isLessThan(clientSawReady.plus(Duration.ofSeconds(1)));
      // A progress line printed during the wait would have named the load phase.
      assertThat(progress).anyMatch(line -> line.contains("loading model") && line.endsWith("so far"));

      ServerProcess.Stopped stopped = server.stop();
      System.out.println("[real llama-server] " + stopped + "; last log lines: " + server.recentLines());
      assertThat(stopped.ending()).isEqualTo(ServerProcess.Ending.TERMINATED);
      assertThat(server.recentLines()).anyMatch(l -> l.contains("cleaning up before exit"));
      assertThat(health(port)).isZero(); // nothing listens any more
    }
  }

  @Test
  void missingModelFailsInSecondsWithTheLogsLastLines() {
    int port = freePort();
    long begin = System.nanoTime();
    try (LaunchedServer server = LaunchedServer.launch(llamaServer("/opt/llmbench/no-such-model.gguf")
        .resolve(Map.of("port", Integer.toString(port))), dir.resolve("llama-server.log"), 30, Duration.ofSeconds(10))) {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> !server.isRunning());
      assertThatThrownBy(server::checkRunning)
          .isInstanceOf(ServerExitedException.class)
          .hasMessageContaining("exited with exit code 1 ")
          .hasMessageContaining("(llama.cpp: starting ")
          .hasMessageContaining("loading model")
          .hasMessageContaining("failed to open GGUF file '/opt/llmbench/no-such-model.gguf'")
          .hasMessageEndingWith("exiting due to model loading error")
          .satisfies(e -> System.out.println("[real llama-server] " + e.getMessage()));
    }
    assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(30));
  }

  /** Drops {@code file}'s clean pages from the page cache (posix_fadvise DONTNEED, by the root's own python3). */
  private static void evictFromPageCache(String file) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("chroot", root.toString(), "python3", "-c", "import os; fd = os.open('" + file
        + "', os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)").inheritIO().start();
    assertThat(p.waitFor()).as("posix_fadvise of " + file + " in " + root).isZero();
  }

  private static LaunchCommand llamaServer(String model) {
    return LaunchCommand.of("chroot", root.toString(), "llama-server", "-m", model, "--host", "127.0.0.1", "--port", "${port}",
        "-np", "1", "-c", "512", "-t", "1", "--metrics", "--alias", "x", "--no-webui");
  }

  /** The status of GET /health, or 0 when nothing answers. */
  private static int health(int port) {
    try {
      HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/health").toURL().openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout(2000);
      try {
        return c.getResponseCode();
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      return 0;
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
