package dev.llmbench.deployments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.EngineMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Candidates the suite launches, one after another on one port: the embedded engine as a process of its own
 * (EngineMain), crossed over two profiles by {@link ServeParam}.
 */
class LaunchedCandidatesPlatformTests {

  static final String PORT = "8131";

  /** {@code java -cp <this JVM's classpath> EngineMain --port <port>}: a real OpenAI server process. */
  static String engine(String port, String... extra) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return String.join(" ", Stream.concat(Stream.of(java, "-cp", System.getProperty("java.class.path"),
        EngineMain.class.getName(), "--port", port), Stream.of(extra)).toList());
  }

  @Test
  void eachCandidateRunsEveryLevelThenStopsBeforeTheNextStarts(@TempDir Path work) throws IOException {
    Path events = work.resolve("events");
    BenchKit.Run run = BenchKit.run(TwoProfiles.class, "llmbench.launch.env",
        "ENGINE='" + engine(PORT) + "' EVENTS=" + events);
    // Candidate-major: every level of the first, then the second, on the same port (it was free again).
    assertThat(run).passed("C=1 · profile-instant", "C=2 · profile-instant", "C=1 · profile-fixed-20ms",
        "C=2 · profile-fixed-20ms");
    assertThat(Files.readString(run.reportDir().resolve("server-profile-instant.log"))).contains("'instant'");
    assertThat(Files.readString(run.reportDir().resolve("server-profile-fixed-20ms.log"))).contains("'fixed-20ms'");
    // Each candidate's shell wrote when it started and when it was told to stop: the first stopped before the second started.
    assertThat(Files.readAllLines(events)).containsExactly("start instant", "stop instant", "start fixed-20ms",
        "stop fixed-20ms");
    // The answer: each candidate's speed, and beside it what it cost to start.
    String table = Files.readString(run.sweepDir(TwoProfiles.class, "sweep").resolve("table.txt"));
    assertThat(table).startsWith("verdict: PASSED (measured on the embedded simulator (profile 'instant'), not a real server)\n");
    assertThat(table).containsPattern("time to ready \\(launch to ready, each restart and autoscale pays it\\): "
        + "profile-instant \\d+\\.\\d\\d s; profile-fixed-20ms \\d+\\.\\d\\d s");
  }

  @Test
  void theCandidatesMayComeFromTheSettingWithoutACodeChange(@TempDir Path work) throws IOException {
    Path events = work.resolve("events");
    BenchKit.Run run = BenchKit.run(TwoProfiles.class, "llmbench.launch.env", "ENGINE='" + engine(PORT) + "' EVENTS=" + events,
        "llmbench.deployments", "profile-fixed-20ms=launch,serve.profile=fixed-20ms;profile-instant=launch,serve.profile=instant");
    assertThat(run).passed("C=1 · profile-fixed-20ms", "C=2 · profile-fixed-20ms", "C=1 · profile-instant",
        "C=2 · profile-instant");
    assertThat(Files.readAllLines(events)).containsExactly("start fixed-20ms", "stop fixed-20ms", "start instant",
        "stop instant");
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:" + PORT, readyPollInterval = "100ms")
  @LaunchServer(command = {"sh", "-c", "echo start ${profile} >> \"$EVENTS\"; "
      + "trap 'echo stop ${profile} >> \"$EVENTS\"; kill $c; wait $c; exit 0' TERM; $ENGINE --profile ${profile} & c=$!; wait $c"},
      stopGrace = "5s")
  @ServeParam(name = "profile", values = {"instant", "fixed-20ms"})
  static class TwoProfiles {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    void sweep(SweepLevelResult level, DeploymentLevels atThisLoad) {
      // The server answering is the candidate's own: each profile serves a model of its own name.
      assertThat(level.endpoint().model()).isEqualTo(level.endpoint().deployment().orElseThrow().replace("profile-", ""));
      // The embedded engine launched as a process is the simulator still, and said so (it names itself in /version).
      assertThat(level.endpoint().embedded()).contains(level.endpoint().model());
    }
  }
}
