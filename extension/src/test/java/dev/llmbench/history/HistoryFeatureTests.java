package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The history wired into whole runs on the embedded engine: what a run appends, what a planted step finds, a store that fails. */
class HistoryFeatureTests {

  static final String SUITE = TwoLevelsTestCases.class.getName();

  static Path newHistory() throws IOException {
    Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "testkit-reports")), "history-");
    return dir.resolve("history.jsonl");
  }

  static List<String> historyLines(BenchKit.Run run) throws IOException {
    return Files.readAllLines(run.sweepDir(TwoLevelsTestCases.class, "sweep").resolve("table.txt")).stream()
        .filter(l -> l.startsWith("history: ")).toList();
  }

  @Test
  void aRunAppendsEachLevelUnderOneRunAndTheSecondDrawsTheTrends() throws IOException {
    Path file = newHistory();
    BenchKit.Run first = BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", file.toString());
    assertThat(first).passed("C=1", "C=2");
    List<LevelRecord> stored = new FileHistoryStore(file).read().levels();
    assertThat(stored).extracting(l -> l.level().level()).containsExactly("C=1", "C=2");
    assertThat(stored).extracting(l -> l.level().suite()).containsOnly(SUITE);
    assertThat(stored).extracting(l -> l.level().sweep()).containsOnly("sweep");
    assertThat(stored).extracting(l -> l.run().id()).containsOnly(stored.get(0).run().id());
    assertThat(stored).extracting(l -> l.run().engine()).containsOnly("embedded fixed-20ms");
    assertThat(stored.get(0).figures()).containsKeys("output_throughput", "request_throughput", "ttft.p50", "ttft.p99",
        "tpot.mean", "error_rate");
    Path dir = first.sweepDir(TwoLevelsTestCases.class, "sweep");
    assertThat(historyLines(first)).isEmpty();
    assertThat(Files.readString(dir.resolve("index.html"))).contains("<h3>History</h3><p>This run's 2 levels were recorded in <code>"
        + file + "</code>; 1 run of this sweep in the trends (a trend needs two).</p>");
    assertThat(dir.resolve("history-output_throughput.svg")).doesNotExist();

    BenchKit.Run second = BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", file.toString());
    assertThat(second).passed("C=1", "C=2");
    assertThat(new FileHistoryStore(file).read().history().runs()).isEqualTo(2);
    Path again = second.sweepDir(TwoLevelsTestCases.class, "sweep");
    assertThat(Files.readString(again.resolve("index.html"))).contains("2 runs of this sweep in the trends, each figure's chart"
        + " under More charts.");
    for (String figure : List.of("output_throughput", "ttft.p50", "ttft.p99")) {
      assertThat(again.resolve("history-" + figure + ".svg")).exists();
    }
    assertThat(Files.readString(again.resolve("history-output_throughput.svg")))
        .contains("Output throughput over the last 2 runs").contains("bands: mean ± 1 sd between change points");
  }

  @Test
  void aPlantedStepInTheNewestRunsIsAFindingWithItsCommitsAndRuns() throws IOException {
    // The levels' identities and this machine's throughput, from a run of its own.
    Path probe = newHistory();
    assertThat(BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", probe.toString())).passed("C=1", "C=2");
    List<LevelRecord> measured = new FileHistoryStore(probe).read().levels();

    // 20 nightly runs: output throughput half as high again as today's up to run 17, today's from run 18 on, in 5%
    // noise: a step well clear of how far this run may stray from the probe's on a busy machine.
    Path file = newHistory();
    SplittableRandom random = new SplittableRandom(34);
    List<LevelRecord> planted = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      for (LevelRecord m : measured) {
        double today = m.figures().get("output_throughput").value();
        double level = i < 17 ? today * 1.5 : today;
        planted.add(new LevelRecord(HistoryFixtures.run(i), m.level(),
            Map.of("output_throughput", new StoredFigure(level * (1 + 0.05 * HistoryFixtures.gaussian(random)), "tok/s"))));
      }
    }
    new FileHistoryStore(file).append(planted);

    BenchKit.Run run = BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", file.toString());
    assertThat(run).passed("C=1", "C=2");
    List<String> lines = historyLines(run);
    assertThat(lines).hasSize(2);
    for (int i = 0; i < 2; i++) {
      assertThat(lines.get(i)).matches(Messages.pattern("history: output throughput at C=" + (i + 1) + " fell {n}% (±{n}%)"
          + " between commit 0000010 and 0000011 (run 18 of 21): {n} tok/s over 17 runs before, {n} tok/s over 4 after,"
          + " beyond the series' noise ({n}% run to run, p = {n})"));
    }
    Path dir = run.sweepDir(TwoLevelsTestCases.class, "sweep");
    assertThat(Files.readString(dir.resolve("history-output_throughput.svg"))).contains("over the last 21 runs");
    assertThat(Files.readString(dir.resolve("sweep.json"))).contains("history: output throughput at C=1 fell ");
  }

  @Test
  void theAllureSweepSummaryShowsTheTrendsAndTheFindings() throws IOException {
    Path file = newHistory();
    assertThat(BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", file.toString())).passed("C=1", "C=2");
    Path results = Files.createTempDirectory(file.getParent(), "allure-results-");
    List<JsonNode> allure = BenchKit.runWithAllure(TwoLevelsTestCases.class, results, "llmbench.history.file", file.toString());
    String html = allure.stream().filter(r -> r.path("name").asText().equals("sweep · sweep summary")).findFirst()
        .orElseThrow().path("descriptionHtml").asText();
    for (String figure : List.of("output_throughput", "ttft.p50", "ttft.p99")) {
      assertThat(html).contains("<img alt=\"chart: history-" + figure + "\" src=\"data:image/svg+xml;base64,");
    }
  }

  @Test
  void aStoreThatCannotBeWrittenIsALoudWarningNotAFailedRun() throws IOException {
    // A folder where the file should be: nothing can be appended to it.
    Path folder = Files.createDirectories(newHistory());
    BenchKit.Run run = BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", folder.toString());
    assertThat(run).passed("C=1", "C=2");
    assertThat(historyLines(run)).containsExactly(
        "history: WARNING: this run's 2 levels were NOT recorded: " + folder + ": Is a directory (the run's own reports"
            + " are complete without it)",
        "history: WARNING: no trend drawn: " + folder + " could not be read: Is a directory");
  }

  @Test
  void aDatabaseThatIsDownKeepsTheLevelsForTheNextRunAndSaysSo() throws IOException {
    Path file = newHistory();
    String url = "jdbc:postgresql://127.0.0.1:1/bench";
    BenchKit.Run run = BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", file.toString(),
        "llmbench.history.jdbc-url", url);
    assertThat(run).passed("C=1", "C=2");
    Path spool = file.resolveSibling("history-pending.jsonl");
    assertThat(historyLines(run)).hasSize(2);
    assertThat(historyLines(run).get(0)).matches(Messages.pattern("history: WARNING: this run's 2 levels were NOT recorded:"
        + " could not append 2 levels to the history at " + url + ": Connection to 127.0.0.1:1 refused.{*} (SQL state 08001);"
        + " 2 levels kept in " + spool + " for the next run to send (the run's own reports are complete without it)"));
    assertThat(historyLines(run).get(1)).matches(Messages.pattern("history: WARNING: no trend drawn: could not read the history"
        + " at " + url + ": Connection to 127.0.0.1:1 refused.{*} (SQL state 08001)"));
    assertThat(new FileHistoryStore(spool).read().levels()).extracting(l -> l.level().level()).containsExactly("C=1", "C=2");
    assertThat(file).doesNotExist();
  }

  @Test
  void offRecordsNothing() throws IOException {
    BenchKit.Run run = BenchKit.run(TwoLevelsTestCases.class, "llmbench.history.file", "off");
    assertThat(run).passed("C=1", "C=2");
    assertThat(Files.readString(run.sweepDir(TwoLevelsTestCases.class, "sweep").resolve("index.html")))
        .doesNotContain("<h3>History</h3>");
  }

  // ----- fixtures

  // 20 ms a token: steady enough on a busy machine that today's run sits in the planted runs' noise.
  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class TwoLevelsTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 8)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {}
  }
}
