package dev.llmbench.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryTests {

  @Test
  void seriesAreOnePerLevelAndFigureOldestRunFirst() {
    List<LevelRecord> levels = new ArrayList<>(HistoryFixtures.series("C=8", 6, 500, 0.02, 99, 0, 1));
    levels.addAll(HistoryFixtures.series("C=32", 6, 1200, 0.02, 99, 0, 2));
    java.util.Collections.reverse(levels);
    History history = History.of(levels);
    assertThat(history.runs()).isEqualTo(6);
    assertThat(history.series()).extracting(s -> s.level().level() + " " + s.figure() + " " + s.size())
        .containsExactlyInAnyOrder("C=8 output_throughput 6", "C=8 ttft.p50 6", "C=32 output_throughput 6",
            "C=32 ttft.p50 6");
    Series c32 = history.series("output_throughput", "C=32").get(0);
    assertThat(c32.points()).extracting(p -> p.run().id())
        .containsExactly("run-0", "run-1", "run-2", "run-3", "run-4", "run-5");
    assertThat(c32.label()).isEqualTo("output throughput");
    assertThat(c32.unit()).isEqualTo("tok/s");
  }

  @Test
  void stretchesBetweenChangePointsCarryTheNoiseBand() {
    Series series = History.of(HistoryFixtures.series("C=32", 40, 1200, 0.02, 30, -0.08, 7))
        .series("output_throughput", "C=32").get(0);
    List<Series.Stretch> stretches = series.stretches(ChangePointSettings.DEFAULTS);
    assertThat(stretches).extracting(s -> s.from() + ".." + s.to()).containsExactly("0..30", "30..40");
    // The same means the finding of HistoryAssertTests quotes (1204.5 and 1107.0 tok/s).
    assertThat(stretches.get(0).mean()).isCloseTo(1204.5, org.assertj.core.data.Offset.offset(0.05));
    assertThat(stretches.get(1).mean()).isCloseTo(1107.0, org.assertj.core.data.Offset.offset(0.05));
    assertThat(stretches.get(0).stdDev() / stretches.get(0).mean()).isBetween(0.015, 0.03);
    assertThat(new Series(HistoryFixtures.level("C=1"), "x", "", List.of()).stretches(ChangePointSettings.DEFAULTS))
        .isEmpty();
  }

  @Test
  void aBranchAndTheNewestRuns() {
    List<LevelRecord> levels = new ArrayList<>(HistoryFixtures.series("C=8", 6, 500, 0.02, 99, 0, 1));
    RunIdentity feature = new RunIdentity("f-1", HistoryFixtures.START.plusSeconds(86_400L * 10), "abc", "feature", "",
        "vllm", "", "", "");
    levels.add(new LevelRecord(feature, HistoryFixtures.level("C=8"), Map.of("output_throughput", new StoredFigure(1, "tok/s"))));
    History history = History.of(levels);
    assertThat(history.onBranch("main").runs()).isEqualTo(6);
    assertThat(history.onBranch("feature").runs()).isEqualTo(1);
    assertThat(history.onBranch("main").lastRuns(2).levels()).extracting(l -> l.run().id())
        .containsExactly("run-4", "run-5");
  }

  @Test
  void aChangedWorkloadIsANewSeriesNotAChangePoint() {
    List<LevelRecord> levels = new ArrayList<>();
    for (LevelRecord l : HistoryFixtures.series("C=8", 20, 500, 0.02, 10, 0.5, 1)) {
      boolean after = Integer.parseInt(l.run().id().substring("run-".length())) >= 10;
      LevelIdentity id = l.level();
      levels.add(new LevelRecord(l.run(), after ? new LevelIdentity(id.suite(), id.sweep(), id.level(), "",
          LevelIdentity.fingerprint("longer prompts"), id.settings()) : id, l.figures()));
    }
    List<Series> series = History.of(levels).series("output_throughput", "C=8");
    assertThat(series).hasSize(2);
    assertThat(series).allSatisfy(s -> assertThat(s.changes(ChangePointSettings.DEFAULTS)).isEmpty());
    assertThat(LevelIdentity.fingerprint("longer prompts")).hasSize(12).isEqualTo(LevelIdentity.fingerprint("longer prompts"));
  }
}
