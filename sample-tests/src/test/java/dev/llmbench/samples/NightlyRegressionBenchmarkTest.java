package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.history.FileHistoryStore;
import dev.llmbench.history.History;
import dev.llmbench.history.HistoryAssert;
import dev.llmbench.history.LevelRecord;
import dev.llmbench.history.RunIdentity;
import dev.llmbench.history.StoredFigure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A nightly regression gate over the benchmark's history. Every sweep appends its levels to the history
 * ({@code llmbench.history.file}, by default {@code .llmbench/history.jsonl}; this build points it at
 * {@code target/llmbench-history.jsonl}), and a gate reads the series back and fails on a change for the worse among
 * the newest runs, beyond the series' own noise (change points as Apache Otava finds them; docs/history.md).
 *
 * <p>To show the gate firing on the embedded engine, the second test plants a history: the sweep's own levels of
 * tonight, after 17 nightly runs whose throughput was half as high again and 3 like tonight's, in 5% noise. The gate
 * finds the drop at run 18 and names its commits.
 */
@LlmEndpoint(embeddedProfile = "fixed-20ms")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NightlyRegressionBenchmarkTest {

  @Order(1)
  @ConcurrencySweep({1, 2})
  @Workload(maxTokens = 16)
  @Measurement(requests = 8)
  @Warmup(requests = 2)
  void tonight(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
  }

  @Order(2)
  @Test
  void theGateFindsAPlantedDropAndNamesItsCommits() throws IOException {
    List<LevelRecord> tonight = tonightsLevels();
    assertThat(tonight).extracting(r -> r.level().level()).containsExactlyInAnyOrder("C=1", "C=2");

    // In CI the history holds the real nights; here 20 planted ones before tonight's.
    List<LevelRecord> nights = new ArrayList<>();
    SplittableRandom noise = new SplittableRandom(7);
    for (int night = 1; night <= 20; night++) {
      RunIdentity run = night(night, tonight.get(0).run());
      for (LevelRecord level : tonight) {
        double today = level.figures().get("output_throughput").value();
        double then = (night <= 17 ? 1.5 * today : today) * (1 + 0.05 * gaussian(noise));
        nights.add(new LevelRecord(run, level.level(), Map.of("output_throughput", new StoredFigure(then, "tok/s"))));
      }
    }
    nights.addAll(tonight);
    Path planted = Files.createTempDirectory("nightly").resolve("history.jsonl");
    new FileHistoryStore(planted).append(nights);
    History history = new FileHistoryStore(planted).read().history();

    // The CI gate: no change for the worse among the 5 newest runs. Here it fails, naming the change.
    assertThatThrownBy(() -> HistoryAssert.assertThat(history).series(Metric.OUTPUT_THROUGHPUT, "C=1")
        .hasNoRegressionInLast(5))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("output throughput at C=1 fell")
        .hasMessageContaining("between commit c000017 and c000018 (run 18 of 21)")
        .hasMessageContaining("required: none in runs 17 to 21");
  }

  /** The levels this run of the sweep appended: the newest run's levels of this class. */
  private static List<LevelRecord> tonightsLevels() throws IOException {
    List<LevelRecord> mine = new FileHistoryStore(historyFile()).read().levels().stream()
        .filter(r -> r.level().suite().endsWith(NightlyRegressionBenchmarkTest.class.getSimpleName())).toList();
    RunIdentity newest = mine.stream().map(LevelRecord::run).max(Comparator.comparing(RunIdentity::time)).orElseThrow();
    return mine.stream().filter(r -> r.run().id().equals(newest.id())).toList();
  }

  private static Path historyFile() {
    return Path.of(System.getProperty("llmbench.history.file", ".llmbench/history.jsonl"));
  }

  /** Night {@code n} of the planted history: a day apart, ending the day before tonight, on commit c0000NN. */
  private static RunIdentity night(int n, RunIdentity tonight) {
    return new RunIdentity("planted-" + n, tonight.time().minus(Duration.ofDays(21 - n)), String.format("c%06d", n),
        tonight.branch(), "", tonight.engine(), tonight.engineVersion(), tonight.model(), tonight.host());
  }

  private static double gaussian(SplittableRandom random) {
    return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
  }
}
