package dev.llmbench.drift;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drift in a resumed matrix of launched candidates (the embedded engine as a process, one candidate after another): each
 * run writes its reports to a folder of its own, as CI's kill-and-resume check does, so the reference's replies of a
 * reused reference come only from the resume folder, where each candidate's replies are kept beside the ledger.
 * {@code instant+diverge=5} against {@code instant}: none identical, 5 leading tokens in common, top-1 agreement 5/6 and
 * mean KLD (ln 2 / 4) / 6 over the 6 positions of each of the 4 prompts (DriftPlatformTests says why).
 */
class DriftResumePlatformTests {

  private static final String DRIFTS = "C=1 · drifts | drift vs ref: 0/4 replies identical (0.0% [0.0%, 0.0%]), 5.0 of 32.0 "
      + "leading tokens in common [5.0, 5.0], top-1 agreement 83.3% [83.3%, 83.3%], mean KLD 0.0289 [0.0289, 0.0289] over 24 "
      + "positions (p99 0.1733, max 0.1733; top-k holds 96.9% of the reference's probability)";
  private static final String ANSWER = "drift against ref (greedy, 4 prompts, max_tokens 32): drifts 0/4 replies identical, "
      + "5.0 of 32.0 leading tokens in common, top-1 agreement 83.3%, mean KLD 0.0289 at C=1";

  @Test
  void aResumedRunComparesWithTheReusedReferenceAndReportsAReusedCandidatesDriftAgain(@TempDir Path resume)
      throws IOException {
    String[] settings = {"llmbench.deployments.resume-dir", resume.toString()};
    BenchKit.Run first = BenchKit.run(LaunchedDrift.class, settings);
    assertThat(first).passed("C=1 · ref", "C=1 · drifts");
    assertThat(resume.resolve("ref").resolve("drift.C_1.json")).exists();
    assertThat(resume.resolve("drifts").resolve("drift.C_1.json")).exists();
    JsonNode measured = drift(first);
    assertThat(table(first)).contains(DRIFTS, ANSWER);
    // The answer reads as a decision: which candidate (and how fast), at what cost in drift, and in start time.
    String answer = table(first);
    assertThat(answer.indexOf("no @Slo to judge goodput by; by output throughput, ")).isPositive()
        .isLessThan(answer.indexOf(ANSWER));
    assertThat(answer.indexOf(ANSWER)).isLessThan(answer.indexOf("time to ready (launch to ready"));
    assertThat(answer.indexOf("time to ready (launch to ready")).isLessThan(answer.indexOf("latency-throughput frontier"));
    String page = Files.readString(first.sweepDir(LaunchedDrift.class, "drift").resolve("index.html"));
    String verdict = page.substring(page.indexOf("<div class=\"verdict "), page.indexOf("</div>", page.indexOf("<div class=\"verdict ")));
    assertThat(verdict).containsSubsequence("by output throughput", ANSWER, "time to ready", "latency-throughput frontier");

    // Killed during the second candidate, in effect: the ledger keeps the reference only. The run again, in a report
    // folder of its own, reuses the reference (not launched) and compares the candidate it measures with its kept replies.
    ObjectNode ledger = (ObjectNode) new ObjectMapper().readTree(resume.resolve("ledger.json").toFile());
    ((ObjectNode) ledger.path("candidates")).remove("drifts");
    Files.writeString(resume.resolve("ledger.json"), ledger.toPrettyString());
    BenchKit.Run resumed = BenchKit.run(LaunchedDrift.class, settings);
    assertThat(resumed).passed("C=1 · ref", "C=1 · drifts");
    assertThat(resumed.reportDir().resolve("server-ref.log")).doesNotExist();
    assertThat(resumed.reportDir().resolve("server-drifts.log")).exists();
    assertThat(table(resumed)).contains("C=1 · ref | drift: the reference, 4 replies kept", DRIFTS, ANSWER,
        "reused from an earlier run (" + resume + "): ref (measured completely at ");
    assertThat(table(resumed)).containsPattern("; the others measured now\n");
    assertThat(drift(resumed)).isEqualTo(measured);

    // All reused: nothing is launched, and the candidate's drift is reported again from its kept replies.
    BenchKit.Run reused = BenchKit.run(LaunchedDrift.class, settings);
    assertThat(reused).passed("C=1 · ref", "C=1 · drifts");
    try (Stream<Path> files = Files.list(reused.reportDir())) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("server-"));
    }
    assertThat(table(reused)).contains(DRIFTS, ANSWER).containsPattern("drifts \\(measured completely at [^)]+\\); no "
        + "candidate measured now\n");
    assertThat(drift(reused)).isEqualTo(measured);

    // A reused candidate whose replies were not kept says so, instead of a figure it cannot have.
    Files.delete(resume.resolve("drifts").resolve("drift.C_1.json"));
    BenchKit.Run lost = BenchKit.run(LaunchedDrift.class, settings);
    assertThat(lost).passed("C=1 · ref", "C=1 · drifts");
    assertThat(table(lost)).contains("C=1 · drifts | drift: reused from an earlier run that kept none of its replies at C=1, "
        + "so it is not compared; measure it again to compare it").doesNotContain("drift against ref");
  }

  private static String table(BenchKit.Run run) throws IOException {
    return Files.readString(run.sweepDir(LaunchedDrift.class, "drift").resolve("table.txt"));
  }

  /** The sweep's drift figures without the speed, which a run measures anew. */
  private static JsonNode drift(BenchKit.Run run) throws IOException {
    JsonNode candidates = new ObjectMapper().readTree(run.sweepDir(LaunchedDrift.class, "drift").resolve("sweep.json")
        .toFile()).path("drift").path("candidates");
    assertThat(candidates).hasSize(1);
    ObjectNode c = (ObjectNode) candidates.get(0).deepCopy();
    c.remove("output_tokens_per_s");
    return c;
  }

  @LaunchServer(command = {"${java}", "-cp", "${classpath}", "dev.llmbench.testkit.EngineMain", "--port", "${port}"},
      stopGrace = "5s")
  @Deployment(name = "ref", serve = "profile=instant")
  @Deployment(name = "drifts", serve = "profile=instant+diverge=5")
  static class LaunchedDrift {
    @ConcurrencySweep(1)
    @Warmup(requests = 0)
    @Drift(prompts = 4, maxTokens = 32)
    void drift(SweepLevelResult level, Drifts drift) {}
  }
}
