package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.Metric;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryAssertTests {

  @Test
  void aPlantedRegressionIsFoundWithItsCommitRangeAndRunNumber() {
    History history = History.of(HistoryFixtures.series("C=32", 40, 1200, 0.02, 30, -0.08, 7));
    List<SeriesChange> changes = history.series("output_throughput", "C=32").get(0)
        .changes(ChangePointSettings.DEFAULTS);
    assertThat(changes).hasSize(1);
    SeriesChange change = changes.get(0);
    assertThat(change.point().index()).isEqualTo(30);
    assertThat(change.runBefore().shortCommit()).isEqualTo("000001d");
    assertThat(change.runAfter().shortCommit()).isEqualTo("000001e");
    assertThat(change.finding()).isEqualTo(
        "output throughput at C=32 fell 8.1% (±0.8%) between commit 000001d and 000001e (run 31 of 40): 1204.5 tok/s"
            + " over 30 runs before, 1107.0 tok/s over 10 after, beyond the series' noise (2.2% run to run, p = 3.4e-12)");
  }

  @Test
  void theGatePassesOnNoiseAlone() {
    History history = History.of(HistoryFixtures.series("C=32", 40, 1200, 0.03, 99, 0, 11));
    HistoryAssert.assertThat(history).series(List.of(Metric.OUTPUT_THROUGHPUT, Metric.TTFT), "C=32")
        .hasNoChangePointInLast(5);
  }

  @Test
  void theGateFailsListingEveryViolation() {
    List<LevelRecord> levels = new ArrayList<>(HistoryFixtures.series("C=32", 40, 1200, 0.02, 37, -0.10, 7));
    levels.addAll(HistoryFixtures.series("C=8", 40, 600, 0.02, 36, 0.12, 8));
    History history = History.of(levels);
    assertThatThrownBy(() -> HistoryAssert.assertThat(history).figures(List.of("output_throughput"), "C=32")
        .hasNoChangePointInLast(5))
        .hasMessage(String.join(System.lineSeparator(), "[history] expected no change point in the last 5 runs of [output_throughput] at C=32 (1 series)"
            + " but found 1:", "- dev.example.ServingTest.throughputScales C=32: output throughput at C=32 fell 9.9% (±1.8%)"
            + " between commit 0000024 and 0000025 (run 38 of 40): 1204.1 tok/s over 37 runs before, 1084.6 tok/s over"
            + " 3 after, beyond the series' noise (2.2% run to run, p = 5.9e-09)",
            "  actual: a change at run 38 of 40, p = 5.9e-09, magnitude 11.0%; required: none in runs 36 to 40 at"
            + " p <= 0.001 and magnitude >= 0.0%"));
  }

  @Test
  void aRegressionGateLetsImprovementsPass() {
    // Throughput up 10% at run 38: a change point, not a regression.
    History history = History.of(HistoryFixtures.series("C=32", 40, 1200, 0.02, 37, 0.10, 7));
    HistoryAssert.assertThat(history).series(Metric.OUTPUT_THROUGHPUT, "C=32").hasNoRegressionInLast(5);
    assertThatThrownBy(() -> HistoryAssert.assertThat(history).series(Metric.OUTPUT_THROUGHPUT, "C=32")
        .hasNoChangePointInLast(5))
        .hasMessageStartingWith("[history] expected no change point in the last 5 runs of [output_throughput] at C=32");
    // Down 10%: a regression.
    History worse = History.of(HistoryFixtures.series("C=32", 40, 1200, 0.02, 37, -0.10, 7));
    assertThatThrownBy(() -> HistoryAssert.assertThat(worse).series(Metric.OUTPUT_THROUGHPUT, "C=32")
        .hasNoRegressionInLast(5))
        .hasMessageStartingWith("[history] expected no regression in the last 5 runs of [output_throughput] at C=32"
            + " (1 series) but found 1:");
  }

  @Test
  void aLatencyThatRoseIsARegressionAndOneThatFellIsNot() {
    Series series = new Series(HistoryFixtures.level("C=8"), "ttft.p99", "ms", List.of());
    assertThat(new SeriesChange(series, new ChangePoint(5, 0, 80, 90, 1, 1, 5, 5, 0.0001)).isRegression()).isTrue();
    assertThat(new SeriesChange(series, new ChangePoint(5, 0, 80, 70, 1, 1, 5, 5, 0.0001)).isRegression()).isFalse();
    Series unknown = new Series(HistoryFixtures.level("C=8"), "my_score", "", List.of());
    assertThat(new SeriesChange(unknown, new ChangePoint(5, 0, 80, 90, 1, 1, 5, 5, 0.0001)).isRegression()).isTrue();
  }

  @Test
  void aLevelNobodyMeasuredFailsNamingTheLevelsThereAre() {
    History history = History.of(HistoryFixtures.series("C=32", 5, 1200, 0.02, 99, 0, 7));
    assertThatThrownBy(() -> HistoryAssert.assertThat(history).series(Metric.OUTPUT_THROUGHPUT, "C=64"))
        .hasMessage("[history] no series of [output_throughput] at level C=64: the history holds 5 runs, levels [C=32]");
  }
}
