package dev.llmbench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.engine.RequestTimings;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * A baseline round trip on real runs: a sweep saved as the baseline, then run again unchanged, 35% slower
 * and 2% slower. The slower engines are the same profile with every step time scaled, started here and
 * reached by URL as a remote deployment would be (the embedded engine has no slow-down setting of its own).
 * Each comparison is against a baseline measured just before it ({@link #baselineJustBefore()}): on a shared
 * machine the load changes from one minute to the next, and one baseline measured tests earlier skews every
 * comparison with it when a busy minute hits it (once, at load 11, the 35% slower engine passed at C=8 and the
 * 2% slower one read 40 points away from the engine's own change, both against the same baseline).
 */
class BaselineTests {

  static final ObjectMapper JSON = new ObjectMapper();
  static final List<String> LEVELS = List.of("C=4", "C=8");
  static EmbeddedLlmServer base;
  static EmbeddedLlmServer aThirdSlower;
  static EmbeddedLlmServer twoPercentSlower;
  static Path baselines;

  /**
   * 100 ms steps plus 4 ms per further sequence. A shared 2-core machine wakes the engine's scheduler and
   * its writers late by a few milliseconds a step, by tens under heavy load (load 11 to 20), and that
   * lateness differs from run to run: the steps are long so that it stays a small share of them (with 50 ms
   * steps it was a third at load 11).
   */
  static PerformanceProfile steady(double factor) {
    return new PerformanceProfile("steady", "steady-model", Duration.ofNanos(Math.round(100e6 * factor)),
        Duration.ofNanos(Math.round(4e6 * factor)), Duration.ZERO, 64, 0, 1, "100 ms steps x " + factor);
  }

  @BeforeAll
  static void saveTheBaseline() throws IOException {
    base = EmbeddedLlmServer.start(steady(1.0), 0, Duration.ZERO);
    aThirdSlower = EmbeddedLlmServer.start(steady(1.35), 0, Duration.ZERO);
    twoPercentSlower = EmbeddedLlmServer.start(steady(1.02), 0, Duration.ZERO);
    baselines = Files.createTempDirectory(Files.createDirectories(Path.of("target", "testkit-reports")), "baselines-");
    BenchKit.Run first = run(base, baselines);
    assertThat(first).passed("C=4", "C=8");
    assertThat(table(first)).contains("baseline: this run is saved as " + baselineFile());
    JsonNode saved = JSON.readTree(baselineFile().toFile());
    assertThat(saved.path("format").asText()).isEqualTo("llmbench-baseline/1");
    assertThat(saved.path("levels")).extracting(l -> l.path("label").asText()).containsExactly("C=4", "C=8");
    assertThat(saved.path("levels").get(0).path("output_tokens")).hasSize(8);
    assertThat(saved.path("levels").get(0).path("tpot_s")).hasSize(8);
    assertThat(saved.path("levels").get(0).path("itl_s")).hasSize(8 * 11);
  }

  @AfterAll
  static void stop() {
    for (EmbeddedLlmServer s : new EmbeddedLlmServer[] {base, aThirdSlower, twoPercentSlower}) {
      if (s != null) s.close();
    }
  }

  static BenchKit.Run run(EmbeddedLlmServer server, Path baselineDir, String... more) {
    String[] configuration = new String[4 + more.length];
    configuration[0] = "llmbench.base-url";
    configuration[1] = server.baseUrl().toString();
    configuration[2] = "llmbench.baseline.dir";
    configuration[3] = baselineDir.toString();
    System.arraycopy(more, 0, configuration, 4, more.length);
    return BenchKit.run(SweepTestCases.class, configuration);
  }

  static Path baselineFile() {
    return baselineFile(baselines);
  }

  static Path baselineFile(Path dir) {
    return dir.resolve(SweepTestCases.class.getName().replace('$', '.') + ".sweep.json");
  }

  /** A baseline in its own directory, and the base engine's own median token gap at each level while it ran, in ms. */
  record Saved(Path dir, Map<String, Double> engineGapMillis) {}

  /** The base engine measured and saved as the baseline just before the run that is compared with it. */
  static Saved baselineJustBefore() throws IOException {
    Path dir = Files.createTempDirectory(baselines, "just-before-");
    BenchKit.Run saved = run(base, dir);
    assertThat(saved).passed("C=4", "C=8");
    assertThat(table(saved)).contains("baseline: this run is saved as " + baselineFile(dir));
    return new Saved(dir, engineMedianGapMillisByLevel(base.finishedRequests()));
  }

  static String table(BenchKit.Run run) throws IOException {
    return Files.readString(run.sweepDir(SweepTestCases.class, "sweep").resolve("table.txt"));
  }

  /** The figure's change against the baseline, and its verdict, as the level's JSON reports them. */
  static Map<String, JsonNode> deltas(BenchKit.Run run, String level) throws IOException {
    JsonNode json = JSON.readTree(run.sweepDir(SweepTestCases.class, "sweep").resolve(level + ".json").toFile());
    Map<String, JsonNode> byFigure = new HashMap<>();
    json.path("llmbench").path("baseline").path("deltas").forEach(d -> byFigure.put(d.path("figure").asText(), d));
    return byFigure;
  }

  @Test
  void anUnchangedRerunPassesAndReportsItsDeltas() throws IOException {
    BenchKit.Run rerun = run(base, baselineJustBefore().dir());
    assertThat(rerun).passed("C=4", "C=8");
    assertThat(table(rerun)).contains("C= 4 | vs baseline: ITL p50 ")
        .contains("2 of 2 levels compared; no figure regressed");
    for (String level : LEVELS) {
      Map<String, JsonNode> deltas = deltas(rerun, level);
      assertThat(deltas).containsOnlyKeys("ITL p50");
      deltas.values().forEach(d -> assertThat(d.path("verdict").asText()).as(level + " " + d).isNotEqualTo("REGRESSED"));
    }
    assertThat(Files.readString(rerun.sweepDir(SweepTestCases.class, "sweep").resolve("index.html"))).contains("Against the baseline");
  }

  /**
   * Every step takes 1.35x as long, so every token gap does: ITL's median rises by about 35%. The gate fails a
   * level only when the interval's lower end clears 15%: with 20% (as before) that asked eight requests on a
   * busy 2-core machine for an interval of +-5%, and one level in a few passed with [+6.6%, +27.6%]. The change
   * is held to the one the engines themselves timed, not to 35%: a loaded machine adds the same milliseconds of
   * lateness to both engines' steps, which shrinks the ratio (at load 21, C=8 read +16.7%).
   */
  @Test
  void aProfileAThirdSlowerFailsEveryLevelNamingTheDeltas() throws IOException {
    Saved baseline = baselineJustBefore();
    BenchKit.Run slower = run(aThirdSlower, baseline.dir());
    Map<String, Double> engineGaps = engineMedianGapMillisByLevel(aThirdSlower.finishedRequests());
    for (String level : LEVELS) {
      double engineChange = engineGaps.get(level) / baseline.engineGapMillis().get(level) - 1;
      // Other figures may clear the gate too on a busy machine: ITL's line is the one the profile makes certain.
      assertThat(slower).level(level).failedWith(AssertionError.class).hasMessageMatching(Messages.pattern(level + ": {n} "
          + "figure(s) regressed against the baseline, worse beyond noise and by more than 15.0%:\n{*}"
          + "  - ITL p50 +{n}% [+{n}%, +{n}%] ({n} → {n} ms): regressed\n{*}"
          + "  baseline: " + baselineFile(baseline.dir()) + "\n"
          + "  if the change is intended, save a new baseline with -Dllmbench.baseline.save=true"));
      JsonNode itl = deltas(slower, level).get("ITL p50");
      assertThat(itl.path("change").asDouble())
          .as("%s: ITL p50's change, against the engine's own change of its token gaps at that level (%+.3f)", level, engineChange)
          .isCloseTo(engineChange, within(0.04));
      assertThat(itl.path("change_ci95_lower").asDouble()).as(level).isGreaterThan(0.15);
      assertThat(itl.path("verdict").asText()).isEqualTo("REGRESSED");
    }
    assertThat(table(slower)).contains("2 of 2 levels compared; ").contains("C=4 ITL p50 +");
  }

  /**
   * The median gap between the token chunks the engine wrote at each level of the run that just ended, in ms.
   * Per level, because one median over both would fall between C=4's 112 ms and C=8's 128 ms gaps and flip
   * from one to the other with a request's count. The levels run one after the other, 8 requests each, so the
   * run's last 16 generations of the workload's 12 tokens (readiness's one-token probe is not one) are C=4's 8,
   * then C=8's.
   */
  static Map<String, Double> engineMedianGapMillisByLevel(List<RequestTimings.Finished> done) {
    List<RequestTimings.Finished> generated = done.stream().filter(f -> f.tokens() == 12).toList();
    assertThat(generated).as("the engine's generations of the run").hasSizeGreaterThanOrEqualTo(16);
    List<RequestTimings.Finished> run = generated.subList(generated.size() - 16, generated.size());
    Map<String, Double> byLevel = new HashMap<>();
    for (int i = 0; i < LEVELS.size(); i++) {
      long[] gaps = run.subList(8 * i, 8 * i + 8).stream().flatMapToLong(f -> LongStream.of(f.chunkGapsNanos())).sorted().toArray();
      byLevel.put(LEVELS.get(i), gaps[gaps.length / 2] / 1e6);
    }
    return byLevel;
  }

  /**
   * The reported change is held to the change the engines themselves timed, not to 2%: a busy runner wakes
   * an engine late by a different share of its steps from one run to the next (once by 10%), and the gate
   * must read what the server did at the same level, within the client's own noise.
   */
  @Test
  void aTwoPercentChangePasses() throws IOException {
    Saved baseline = baselineJustBefore();
    BenchKit.Run slightly = run(twoPercentSlower, baseline.dir());
    assertThat(slightly).passed("C=4", "C=8");
    Map<String, Double> engineGaps = engineMedianGapMillisByLevel(twoPercentSlower.finishedRequests());
    for (String level : LEVELS) {
      double engineChange = engineGaps.get(level) / baseline.engineGapMillis().get(level) - 1;
      Map<String, JsonNode> deltas = deltas(slightly, level);
      assertThat(deltas.get("ITL p50").path("change").asDouble())
          .as("%s: ITL p50's change, against the engine's own change of its token gaps at that level (%+.3f)", level, engineChange)
          .isCloseTo(engineChange, within(0.04));
      deltas.values().forEach(d -> assertThat(d.path("verdict").asText()).as(level + " " + d).isNotEqualTo("REGRESSED"));
    }
  }

  @Test
  void saveReplacesTheBaselineWithThisRun() throws IOException {
    Path dir = Files.createTempDirectory(baselines, "save-");
    Path file = dir.resolve(baselineFile().getFileName());
    Files.copy(baselineFile(), file);
    BenchKit.Run saved = BenchKit.run(SweepTestCases.class, "llmbench.base-url", aThirdSlower.baseUrl().toString(),
        "llmbench.baseline.dir", dir.toString(), "llmbench.baseline.save", "true", "llmbench.sweep.levels", "8");
    assertThat(saved).passed("C=8");
    assertThat(table(saved)).contains("baseline: this run is saved as " + file);
    JsonNode levels = JSON.readTree(file.toFile()).path("levels");
    // The level that ran is replaced; the one that did not is kept.
    assertThat(levels).extracting(l -> l.path("label").asText()).containsExactly("C=4", "C=8");
    // 1.35 x (100 + 7 x 4) ms against 100 + 3 x 4 ms: the replaced level's gaps are the slower engine's.
    assertThat(levels.get(1).path("median_itl_ms").asDouble()).isGreaterThan(1.1 * levels.get(0).path("median_itl_ms").asDouble());
  }

  /** A vLLM run claiming 10 ms token gaps at the same concurrency: ours, 100 ms and more, regressed against it. */
  @Test
  void comparesWithVllmBenchServeResultsLevelByConcurrency() throws IOException {
    Path vllm = Files.createTempDirectory(baselines, "vllm-");
    for (int c : new int[] {4, 8}) {
      Files.writeString(vllm.resolve("openai-chat-infq-concurrency" + c + "-m-20260801-101500.json"),
          VllmReferenceTests.detailed(c, 0.010));
    }
    BenchKit.Run run = run(base, baselines, "llmbench.baseline.vllm", vllm.toString());
    for (String level : LEVELS) {
      assertThat(run).level(level).failedWith(AssertionError.class).hasMessageMatching(Messages.pattern(level + ": {n} "
          + "figure(s) regressed against the baseline, worse beyond noise and by more than 15.0%:\n{*}"
          + "  - ITL p50 +{n}% [+{n}%, +{n}%] ({n} → {n} ms): regressed\n{*}"
          + "  baseline: vLLM results " + vllm + " (openai-chat-infq-concurrency" + level.substring(2) + "-m-20260801-101500.json)"));
      assertThat(deltas(run, level).get("ITL p50").path("baseline").asDouble()).isEqualTo(10.0);
    }
  }

  @Test
  void anUnreadableBaselineIsAConfigurationErrorBeforeAnyLevelRuns() throws IOException {
    Path dir = Files.createTempDirectory(baselines, "broken-");
    Files.writeString(dir.resolve(baselineFile().getFileName()), "{\"levels\": [");
    assertThat(BenchKit.run(SweepTestCases.class, "llmbench.base-url", base.baseUrl().toString(), "llmbench.baseline.dir",
        dir.toString())).hasSingleFailure()
        // In parentheses, the JSON parser's own words: Jackson's to choose.
        .failedWith(ExtensionConfigurationException.class).hasMessageMatching(Messages.pattern("Configuration error: sweep on "
            + "method [SweepTestCases#sweep]: the baseline " + dir.resolve(baselineFile().getFileName()) + " is not readable "
            + "JSON ({*}); delete it, or save a new one with -Dllmbench.baseline.save=true"));
  }

  @LlmEndpoint(readyPollInterval = "50ms")
  static class SweepTestCases {
    @ConcurrencySweep({4, 8})
    // 12 tokens: at C=8 the eight requests share one round, so their token gaps are the same 11 steps; with
    // 6 tokens there were 5, and one step stretched by a busy machine widened the interval past the 15%.
    @Workload(maxTokens = 12)
    @Measurement(requests = 8)
    @Warmup(requests = 0)
    // ITL: one sample per token gap, so one stall of the shared CPU moves its median little, where it moves
    // per-request figures (TPOT, E2E, throughput) of a level of eight requests by a third. Every figure is
    // compared on hand-made levels in BaselineFileTests. 15%: well inside the 35% slow-down that must
    // fail, and outside the few milliseconds a step a loaded machine adds.
    @Baseline(maxRegression = 0.15, metrics = Metric.ITL)
    void sweep(SweepLevelResult level, BaselineComparison vsBaseline) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
      assertThat(vsBaseline.level()).isEqualTo(level.label());
      assertThat(vsBaseline.toString()).isEqualTo("baseline of " + level.label());
    }
  }
}
