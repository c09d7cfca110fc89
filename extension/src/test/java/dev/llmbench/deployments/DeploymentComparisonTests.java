package dev.llmbench.deployments;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EarlierLevels;
import dev.llmbench.Measurement;
import dev.llmbench.Metric;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Several deployments in one sweep: a test per level and deployment, one table, overlaid charts, the
 * statement of which is best under the SLO, and relative assertions. "fast" is the 1 ms-per-step engine,
 * "slow" the 20 ms one, at 4 tokens per request: 80 ms of steps against 4 a round. A busy machine stalls
 * a whole round of a closed loop now and then (all its requests share the batch), by up to a couple of
 * hundred milliseconds; over the three to six rounds of a level, no stall closes the gap.
 */
class DeploymentComparisonTests {

  /** One run of the two deployments, for the tests that only read what it did. */
  static BenchKit.Run twoDeployments;

  @BeforeAll
  static void runTwoDeployments() {
    twoDeployments = BenchKit.run(TwoDeploymentsTestCases.class);
  }

  @Test
  void eachLevelIsOneTestPerDeploymentEveryDeploymentAtALoadBeforeTheNextLoad() {
    assertThat(twoDeployments).passed("C=2 · fast", "C=2 · slow", "C=4 · fast", "C=4 · slow");
  }

  @Test
  void oneTableOverlaidChartsAndWhichDeploymentGivesTheMostGoodputUnderTheSlo() throws IOException {
    BenchKit.Run run = twoDeployments;
    assertThat(run).allTestsPassed(4);
    Path dir = run.sweepDir(TwoDeploymentsTestCases.class, "compare");
    String table = Files.readString(dir.resolve("table.txt"));
    assertThat(table.lines().filter(l -> l.matches("C= [24] · (fast|slow) \\| 12/12 ok.*")).count()).as(table).isEqualTo(4);
    assertThat(table).contains("[fast] 2x the concurrency", "[slow] 2x the concurrency")
        .contains("under the SLO (TPOT ≤ 15.0 ms at p50), fast gives the most goodput: ")
        .contains("slow meets it at no level")
        .contains("latency-throughput frontier").contains("slow has no level on it")
        .contains("network round trip to fast (embedded instant): median", "network round trip to slow (embedded fixed-20ms)");
    for (String chart : List.of("throughput", "latency", "ttft", "efficiency", "tradeoff")) {
      String svg = Files.readString(dir.resolve(chart + ".svg"));
      assertThat(svg).as("%s.svg has a line per deployment", chart).contains("(fast)</text>", "(slow)</text>");
    }
    assertThat(Files.readString(dir.resolve("pareto.svg"))).as("pareto.svg has both deployments and the frontier")
        .contains(">fast</text>", ">slow</text>", ">Pareto frontier</text>");
    assertThat(dir.resolve("C=2_fast.json")).exists();
    assertThat(Files.readString(dir.resolve("C=2_slow.json"))).contains("\"deployment\" : \"slow\"");
    assertThat(Files.readString(dir.resolve("index.html"))).contains("fast gives the most goodput");
  }

  @Test
  void thePageLeadsWithTheAnswerThenTheHeadlineChartsThenTheFindingsAndShowsEachLevelsTimeline() throws IOException {
    assertThat(twoDeployments).allTestsPassed(4);
    Path dir = twoDeployments.sweepDir(TwoDeploymentsTestCases.class, "compare");
    String html = Files.readString(dir.resolve("index.html"));
    int answer = html.indexOf("<h3>Answer</h3>");
    int goodput = html.indexOf("fast gives the most goodput");
    int slo = html.indexOf("SLO TPOT ≤ 15.0 ms at p50: met at C=2 · fast, C=4 · fast; missed at C=2 · slow (TPOT p50 is ");
    int throughputChart = html.indexOf("<svg", slo);
    int paretoChart = html.indexOf("<svg", throughputChart + 1);
    int findings = html.indexOf("<h3>Findings</h3>");
    int table = html.indexOf("<table class=\"levels\">");
    int inside = html.indexOf("<h3>Inside each level</h3>");
    assertThat(List.of(answer, goodput, slo, throughputChart, paretoChart, findings, table, inside)).as(html)
        .doesNotContain(-1).isSorted();
    assertThat(html.substring(throughputChart, paretoChart)).contains("Output throughput by concurrency");
    assertThat(html.substring(paretoChart, findings)).contains("deployments, latency vs throughput");
    for (String level : List.of("C=2 · fast", "C=2 · slow", "C=4 · fast", "C=4 · slow")) {
      assertThat(html).contains("<details class=\"level\"><summary>" + level + "</summary><div><svg");
      String file = level.replace(" · ", "_");
      assertThat(Files.readString(dir.resolve(file + ".timeline.svg"))).contains(level + ": requests over time", "12 requests");
      assertThat(Files.readString(dir.resolve(file + ".over-time.svg"))).contains("throughput and requests in flight over time");
    }
  }

  @Test
  void aDeploymentSlowerBeyondNoiseFailsAtEveryLoadNamingBoth() {
    BenchKit.Run run = BenchKit.run(SlowMustKeepUpTestCases.class);
    assertThat(run).level("C=2 · fast").succeeded();
    assertThat(run).level("C=4 · fast").succeeded();
    for (String load : List.of("C=2", "C=4")) {
      assertThat(run).level(load + " · slow").failedWith(AssertionError.class).hasMessageMatching(Messages.pattern("[" + load
          + "] slow is slower than fast beyond noise: output throughput -{n}% [{n}%, {n}%] ({n} → {n} tok/s): regressed"));
    }
  }

  @Test
  void twoDeploymentsOfOneEngineAreAsFastAsEachOtherWithinNoise() {
    assertThat(BenchKit.run(SameEngineTestCases.class)).passed("C=4 · a", "C=4 · b");
  }

  @Test
  void theDeploymentsSettingReplacesTheAnnotationsWithoutCode() throws IOException {
    BenchKit.Run run = BenchKit.run(TwoDeploymentsTestCases.class, "llmbench.deployments",
        "a=embedded:instant ; b=embedded:instant,model=other", "llmbench.sweep.levels", "2");
    assertThat(run).passed("C=2 · a", "C=2 · b");
    assertThat(Files.readString(run.sweepDir(TwoDeploymentsTestCases.class, "compare").resolve("C=2_b.json")))
        .contains("\"model\" : \"other\"", "\"deployment\" : \"b\"");
  }

  @Test
  void aBadDeploymentsSettingIsAConfigurationErrorNamingTheKeyAndTheFix() {
    assertThat(BenchKit.run(TwoDeploymentsTestCases.class, "llmbench.deployments", "a=embedded:h100")).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[TwoDeploymentsTestCases#compare]: llmbench.deployments "
            + "'a=embedded:h100' (from configuration parameter llmbench.deployments) is not usable: "
            + "deployment 'a': 'h100' is an unknown embedded profile; choose one of [fixed-20ms, gqa-dense, "
            + "gqa-fp8, gqa-int4, instant, mla-pcie, reasoning, single-slot, speculative]");
  }

  @Test
  void twoDeploymentsOfOneNameAreAConfigurationError() {
    assertThat(BenchKit.run(SameNameTestCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[SameNameTestCases#compare]: deployment 'x' is named "
            + "twice; name each once");
  }

  // ----- fixtures

  @Deployment(name = "fast", embeddedProfile = "instant")
  @Deployment(name = "slow", embeddedProfile = "fixed-20ms")
  static class TwoDeploymentsTestCases {
    @ConcurrencySweep({2, 4})
    // 16 tokens, so that a request of the 20 ms engine (320 ms) outlasts anything a busy client adds to one of the
    // 1 ms engine's (with 4, its HTTP round trip and a few stalls on a loaded 2-core runner made it the slower).
    @Workload(maxTokens = 16)
    @Measurement(requests = 12)
    @Warmup(requests = 1)
    // The 20 ms engine can never meet it; the 1 ms one only misses it if stalls of the machine add 14 ms
    // to each of 15 token gaps of most requests.
    @Slo(tpot = "15ms", percentile = 50)
    void compare(SweepLevelResult level, EarlierLevels earlier, DeploymentLevels atThisLoad) {
      assertThat(level).hasNoErrors();
      // Each deployment's earlier levels are its own.
      assertThat(earlier.all()).allSatisfy(e -> assertThat(e.endpoint().deployment()).isEqualTo(level.endpoint().deployment()));
      assertThat(atThisLoad.of(level.endpoint().deployment().orElseThrow())).containsSame(level);
      assertThat(atThisLoad.load()).isEqualTo("C=" + level.concurrency());
    }
  }

  @Deployment(name = "fast", embeddedProfile = "instant")
  @Deployment(name = "slow", embeddedProfile = "fixed-20ms")
  static class SlowMustKeepUpTestCases {
    @ConcurrencySweep({2, 4})
    // As TwoDeploymentsTestCases: long enough that the engines' difference dwarfs what a busy client adds.
    @Workload(maxTokens = 16)
    @Measurement(requests = 12)
    @Warmup(requests = 1)
    void compare(DeploymentLevels atThisLoad) {
      assertThat(atThisLoad).deployment("fast").isAtLeastAsFastAs("slow");
      assertThat(atThisLoad).deployment("slow").isAtLeastAsFastAs("fast");
    }
  }

  @Deployment(name = "a", embeddedProfile = "fixed-20ms")
  @Deployment(name = "b", embeddedProfile = "fixed-20ms")
  static class SameEngineTestCases {
    @ConcurrencySweep(4)
    // 16 tokens of 20 ms: each deployment's window lasts about a second, so one stall of a busy machine's
    // CPU (tens of milliseconds) is a few percent of it, not a fifth as with a quarter-second window.
    @Workload(maxTokens = 16)
    @Measurement(requests = 12)
    @Warmup(requests = 1)
    void compare(DeploymentLevels atThisLoad) {
      // One engine twice: the same speed, give or take what a busy machine adds between two runs.
      assertThat(atThisLoad).deployment("b").isAtLeastAsFastAs("a", 0.2).hasLatencyAtMostThatOf("a", Metric.TPOT, 50, 0.2);
      assertThat(atThisLoad).deployment("a").isAtLeastAsFastAs("b", 0.2);
    }
  }

  @Deployment(name = "x", embeddedProfile = "instant")
  @Deployment(name = "x", embeddedProfile = "fixed-20ms")
  static class SameNameTestCases {
    @ConcurrencySweep(1)
    void compare(SweepLevelResult level) {}
  }
}
