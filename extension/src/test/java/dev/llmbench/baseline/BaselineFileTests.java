package dev.llmbench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.internal.compare.ComparisonSide;
import dev.llmbench.internal.core.Listeners;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.result.Delta;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A baseline written and read back, and every figure compared, on hand-made levels with exact timings. */
class BaselineFileTests {

  @TempDir
  Path dir;

  /**
   * Twelve requests at C=2, two every {@code 250 x factor} ms, each 10 tokens: the first after
   * {@code 40 x factor} ms, then one every {@code 20 x factor} ms, with a little spread so that
   * percentiles have something to resample. A factor scales the whole timeline, as a slower engine would.
   */
  static MeasuredLevel level(double factor) {
    return Levels.closed(2).requests(12, i -> {
      long jitter = i % 3;
      long[] chunks = new long[10];
      for (int k = 0; k < 10; k++) chunks[k] = Math.round(factor * (40 + jitter + 20 * k));
      return Traces.at(Math.round(factor * (i / 2) * 250)).content(chunks).usage(10, 10).build();
    }).build();
  }

  static Map<String, Delta> compare(Reference reference, MeasuredLevel level) {
    BaselineComparison c = reference.compare(level, ComparisonSide.COMPARED, List.of(50.0, 90.0), 0.10);
    return c.deltas().stream().collect(Collectors.toMap(Delta::figure, d -> d));
  }

  @Test
  void theSameLevelAgainstItselfIsUnchangedInEveryFigure() {
    Path file = dir.resolve("b.json");
    BaselineFile.write(file, "s", List.of(level(1.0)));
    Map<String, Delta> deltas = compare(BaselineFile.read(file), level(1.0));
    assertThat(deltas).containsOnlyKeys("output throughput", "TTFT p50", "TTFT p90", "TPOT p50", "TPOT p90", "ITL p50",
        "ITL p90", "E2E latency p50", "E2E latency p90");
    deltas.values().forEach(d -> {
      assertThat(d.change().estimate()).as(d.figure()).isCloseTo(0, within(1e-3));
      assertThat(d.verdict()).as(d.figure()).isEqualTo(Delta.Verdict.UNCHANGED);
    });
  }

  @Test
  void everyFigureOfALevelTwentyPercentSlowerRegresses() {
    Path file = dir.resolve("b.json");
    BaselineFile.write(file, "s", List.of(level(1.0)));
    Map<String, Delta> deltas = compare(BaselineFile.read(file), level(1.2));
    deltas.values().forEach(d -> assertThat(d.verdict()).as(d.toString()).isEqualTo(Delta.Verdict.REGRESSED));
    assertThat(deltas.get("TPOT p50").change().estimate()).isCloseTo(0.2, within(0.01));
    assertThat(deltas.get("ITL p90").change().estimate()).isCloseTo(0.2, within(0.01));
    // The same tokens over a window 1.2x as long.
    assertThat(deltas.get("output throughput").change().estimate()).isCloseTo(1 / 1.2 - 1, within(0.01));
  }

  @Test
  void aLevelTwoPercentSlowerIsNoRegressionAndAFasterOneIsAnImprovement() {
    Path file = dir.resolve("b.json");
    BaselineFile.write(file, "s", List.of(level(1.0)));
    Reference reference = BaselineFile.read(file);
    compare(reference, level(1.02)).values()
        .forEach(d -> assertThat(d.verdict()).as(d.toString()).isNotEqualTo(Delta.Verdict.REGRESSED));
    compare(reference, level(0.8)).values().forEach(d -> assertThat(d.verdict()).as(d.toString()).isEqualTo(Delta.Verdict.IMPROVED));
  }

  @Test
  void savingPartOfASweepKeepsTheFilesOtherLevels() throws IOException {
    Path file = dir.resolve("sub/b.json");
    BaselineFile.write(file, "s", List.of(level(1.0), Levels.closed(4).requests(2, i -> Traces.at(i).content(5, 9).build()).build()));
    BaselineFile.write(file, "s", List.of(level(1.5)));
    Reference reference = BaselineFile.read(file);
    assertThat(reference.byLabel()).containsOnlyKeys("C=2", "C=4");
    assertThat(compare(reference, level(1.5)).get("ITL p50").change().estimate()).isCloseTo(0, within(1e-3));
    assertThat(Files.readString(file)).contains("\"format\" : \"llmbench-baseline/1\"", "\"median_itl_ms\" : 30.0", "\"median_itl_ms\" : 4.0");
  }

  @Test
  void aFileThatIsNoBaselineSaysWhatItIs() throws IOException {
    Path vllm = Files.writeString(dir.resolve("v.json"), VllmReferenceTests.detailed(2, 0.02));
    assertThatThrownBy(() -> BaselineFile.read(vllm)).hasMessageContaining("is not an LLMBench baseline")
        .hasMessageContaining("llmbench.baseline.vllm");
  }

  @Test
  void theGateFailsOnlyWhenThePlanSaysSoAndNamesEveryRegressedFigure() {
    Path file = dir.resolve("b.json");
    BaselineFile.write(file, "s", List.of(level(1.0)));
    Reference reference = BaselineFile.read(file);
    BaselineComparison slower = reference.compare(level(1.2), ComparisonSide.COMPARED, List.of(50.0), 0.10);
    BaselineFeature gated = new BaselineFeature(new BaselinePlan(file, false, Optional.of(reference), ComparisonSide.COMPARED,
        List.of(50.0), 0.10, true));
    assertThat(gated.violations(slower)).singleElement().asString()
        .startsWith("C=2: 5 figure(s) regressed against the baseline")
        .contains("- output throughput -16.").contains("- ITL p50 +20.0%");
    // Through the seam the level's extension calls: the sweep's violations for the level are the feature's.
    SweepRun sweep = new SweepRun(BaselineFileTests.class, "sweep", Listeners.none());
    sweep.add(gated);
    assertThat(sweep.violations(level(1.2))).isEqualTo(gated.violations(slower));
    BaselineFeature reportOnly = new BaselineFeature(new BaselinePlan(file, false, Optional.of(reference), ComparisonSide.COMPARED,
        List.of(50.0), 0.10, false));
    assertThat(reportOnly.violations(slower)).isEmpty();
  }
}
