package dev.llmbench.deployments;

import static dev.llmbench.deployments.LaunchedCandidatesPlatformTests.engine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A matrix stopped part way and run again: the candidates measured completely are reused (said so, and not launched),
 * the others measured; a changed setting measures every candidate again; another matrix's folder is refused.
 */
class MatrixResumePlatformTests {

  static final String PORT = "8132";

  @Test
  void aRunAgainReusesTheCandidatesMeasuredCompletelyAndMeasuresTheRest(@TempDir Path resume, @TempDir Path work)
      throws IOException {
    // 'flaky' starts only once its marker exists: the first run, it exits at once (a crash); the matrix goes on.
    Path marker = work.resolve("gpu-free");
    String[] settings = {"llmbench.launch.command", "sh -c ${script}", "llmbench.launch.env",
        "ENGINE='" + engine(PORT) + "' MARKER=" + marker, "llmbench.deployments.resume-dir", resume.toString()};
    BenchKit.Run first = BenchKit.run(ThreeCandidates.class, settings);
    assertThat(first).level("C=1 · instant").succeeded();
    assertThat(first).level("C=1 · flaky").failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(
        "LLM endpoint http://127.0.0.1:" + PORT + "/ cannot become ready: the server `sh -c {*}` exited with exit code 3 "
            + "{duration} after launch, before it was ready. Last 1 line of its log {*}server-flaky.log:\n  | no GPU left"));
    assertThat(first).level("C=1 · fixed").succeeded();
    assertThat(Files.readString(resume.resolve("ledger.json"))).contains("\"instant\"", "\"fixed\"").doesNotContain("\"flaky\"");

    // Again, the same settings: only 'flaky' is launched and measured; the others' levels are the first run's.
    Files.writeString(marker, "");
    BenchKit.Run second = BenchKit.run(ThreeCandidates.class, settings);
    assertThat(second).passed("C=1 · instant", "C=1 · flaky", "C=1 · fixed");
    assertThat(second.reportDir().resolve("server-instant.log")).doesNotExist();
    assertThat(second.reportDir().resolve("server-fixed.log")).doesNotExist();
    assertThat(second.reportDir().resolve("server-flaky.log")).exists();
    String table = Files.readString(second.sweepDir(ThreeCandidates.class, "sweep").resolve("table.txt"));
    assertThat(table).containsPattern("reused from an earlier run \\(" + java.util.regex.Pattern.quote(resume.toString())
        + "\\): instant \\(measured completely at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\), fixed \\(measured "
        + "completely at [^)]+\\); the others measured now");

    // A third run, all reused: nothing is launched.
    BenchKit.Run third = BenchKit.run(ThreeCandidates.class, settings);
    assertThat(third).passed("C=1 · instant", "C=1 · flaky", "C=1 · fixed");
    try (var files = Files.list(third.reportDir())) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("server-"));
    }

    // A changed setting of the sweep (its output length) invalidates every candidate: each is launched again.
    String[] changedSettings = java.util.Arrays.copyOf(settings, settings.length + 2);
    changedSettings[settings.length] = "llmbench.workload.output-length";
    changedSettings[settings.length + 1] = "3";
    BenchKit.Run changed = BenchKit.run(ThreeCandidates.class, changedSettings);
    assertThat(changed).passed("C=1 · instant", "C=1 · flaky", "C=1 · fixed");
    assertThat(changed.reportDir().resolve("server-instant.log")).exists();
    assertThat(changed.reportDir().resolve("server-fixed.log")).exists();
  }

  @Test
  void aResumeFolderOfAnotherMatrixIsRefusedBeforeAnythingIsLaunched(@TempDir Path resume) throws IOException {
    Files.writeString(resume.resolve("ledger.json"), "{\"matrix\": \"com.example.OtherMatrix.sweep\", \"candidates\": {}}");
    BenchKit.Run run = BenchKit.run(ThreeCandidates.class, "llmbench.launch.command", "sh -c ${script}",
        "llmbench.deployments.resume-dir", resume.toString());
    assertThat(run).hasConfigurationError("Configuration error: sweep on method [ThreeCandidates#sweep]: the resume folder " + resume + " holds the candidates of com.example.OtherMatrix.sweep, not of "
        + ThreeCandidates.class.getName() + ".sweep: nothing of it is reused, and nothing is written over it; point "
        + "llmbench.deployments.resume-dir at this matrix's own folder, or at an empty one");
    assertThat(Files.readString(resume.resolve("ledger.json"))).contains("com.example.OtherMatrix.sweep");
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:" + PORT, readyPollInterval = "100ms")
  @LaunchServer(command = "set by the test's configuration", stopGrace = "5s")
  @Deployment(name = "instant", serve = "script=exec $ENGINE --profile instant")
  @Deployment(name = "flaky", serve = "script=test -f \"$MARKER\" || { echo no GPU left >&2; exit 3; }; exec $ENGINE --profile instant")
  @Deployment(name = "fixed", serve = "script=exec $ENGINE --profile fixed-20ms")
  static class ThreeCandidates {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 3)
    void sweep(SweepLevelResult level) {}
  }
}
