package dev.llmbench.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that exits without stopping its server (Ctrl+C, a killed fork) still stops it. */
@Timeout(60)
class ExitHookTests {

  @TempDir
  Path dir;

  /** Launches a server that would run for a minute, prints its pid and exits without stopping it. */
  static final class ExitingRun {
    public static void main(String[] args) {
      ServerProcess server = ServerProcess.start(LaunchCommand.of("sh", "-c", "exec sleep 60"), Path.of(args[0]));
      System.out.println(server.pid());
      System.exit(0);
    }
  }

  @Test
  void serverOfAJvmThatExitsIsStopped() throws IOException, InterruptedException {
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), ExitingRun.class.getName(), dir.resolve("server.log").toString())
        .redirectErrorStream(true).start();
    assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).as("the JVM exits").isTrue();
    String out = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(out).as("the JVM's output: the server's pid").matches("\\d+");
    ProcessHandle server = ProcessHandle.of(Long.parseLong(out)).orElse(null);
    if (server != null) await().atMost(Duration.ofSeconds(10)).until(() -> !ServerProcess.running(server));
  }
}
