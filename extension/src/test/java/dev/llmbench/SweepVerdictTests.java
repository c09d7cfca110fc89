package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.testkit.BenchKit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * One verdict per sweep, the same on every page and stated first: a failed level, a failed {@code @AfterSweep} check, a
 * missed SLO or a failed request make it failed in the console's table ({@code table.txt}, which the job summary
 * reads), the sweep's page, {@code sweep.json} and Allure's sweep summary; the embedded engine is named a simulator.
 */
class SweepVerdictTests {

  private static String simulator(String profile) {
    return "measured on the embedded simulator (profile '" + profile + "'), not a real server";
  }

  @Test
  void aFailedLevelFailsTheSweepOnEveryPage(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(FailedLevelTestCases.class, results);
    pages.assertVerdict("failed", List.of("C=2 failed: too slow at C=2 ..."));
    assertThat(pages.allureLevel("C=2").path("status").asText()).isEqualTo("failed");
  }

  /** A level's assertion that names the level first (as the SLO and p99 checks do) names it once in the verdict. */
  @Test
  void aLevelsFailureThatStartsWithItsLabelNamesItOnce(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(LabelledFailureTestCases.class, results);
    pages.assertVerdict("failed", List.of("C=1 failed: 2 of 4 requests too slow"));
  }

  @Test
  void aFailedAfterSweepCheckFailsTheSweepOnEveryPage(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(FailedAfterSweepTestCases.class, results);
    pages.assertVerdict("failed", List.of("scales (after the sweep) failed: throughput did not scale"));
    // The answer below the verdict still reads the SLO per level: it met it, and the sweep failed anyway.
    assertThat(pages.html()).contains("<li>SLO TTFT ≤ 10.000 s at p90: met at every level (C=1, C=2)</li>");
  }

  @Test
  void aMissedSloAndFailedRequestsFailTheSweepThoughEveryTestPassed(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(MissedSloTestCases.class, results);
    pages.assertVerdict("failed", List.of("SLO TTFT ≤ 1.0 ms at p90 missed at C=1", "C=1: 2 of 4 requests failed {HTTP 500=2}"),
        "fixed-20ms");
  }

  /** In a comparison, which deployment holds the SLO at a load is the answer: one deployment's miss is not a failure. */
  @Test
  void aComparisonWhereOneDeploymentHoldsTheSloAtEachLoadPasses(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(OneHoldsTestCases.class, results);
    pages.assertVerdict("passed", List.of());
  }

  @Test
  void aComparisonWhereEveryDeploymentMissesTheSloAtALoadFails(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(NoneHoldsTestCases.class, results);
    pages.assertVerdict("failed", List.of("SLO TTFT ≤ 1.0 ms at p50 missed at C=1 · a, C=1 · b (by every deployment there)"),
        "fixed-20ms");
  }

  @Test
  void aSweepThatPassedSaysSoAndNamesTheSimulator(@TempDir Path results) throws IOException {
    Pages pages = Pages.of(PassingTestCases.class, results);
    pages.assertVerdict("passed", List.of());
    assertThat(pages.table()).contains("\nSIMULATED: " + simulator("instant") + "\n");
  }

  /**
   * The run's overview lists every sweep with its verdict and a link to its page, those that did not pass first, and
   * the console ends the run with the same verdicts in a few lines and where the overview is.
   */
  @Test
  void theOverviewListsEverySweepWithItsVerdictAndTheConsoleEndsWithThem() throws IOException {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    BenchKit.Run run;
    try {
      run = BenchKit.run(TwoSweepsTestCases.class);
    } finally {
      System.setOut(original);
    }
    String console = captured.toString(StandardCharsets.UTF_8);
    Path page = run.reportDir().resolve("index.html");
    String folder = TwoSweepsTestCases.class.getName().replace('$', '.');
    // The last lines of the run, after every sweep's table.
    assertThat(console).endsWith("\n[llmbench] 2 sweeps: 1 passed, 1 failed\n"
        + "  FAILED TwoSweepsTestCases.second: C=1 failed: no answer [simulator]\n"
        + console.substring(console.indexOf("  PASSED TwoSweepsTestCases.first: peak "), console.indexOf("[simulator]\n  [simulator]:"))
        + "[simulator]\n  [simulator]: measured on the embedded simulator, not a real server (set llmbench.base-url to measure one)\n"
        + "[llmbench] overview of every sweep: " + page.toAbsolutePath() + "\n");
    String html = Files.readString(page);
    assertThat(html).contains("<div class=\"verdict failed\"><h2>2 sweeps: 1 passed, 1 failed</h2>");
    int second = html.indexOf("<a href=\"" + folder + ".second/index.html\">TwoSweepsTestCases.<wbr>second</a>");
    int first = html.indexOf("<a href=\"" + folder + ".first/index.html\">TwoSweepsTestCases.<wbr>first</a>");
    assertThat(second).as("the failed sweep's row, first").isPositive().isLessThan(first);
    assertThat(html).contains("<td>C=1 failed: no answer</td><td>1</td><td>2 (0)</td><td>peak ");
    // Each link leads to the sweep's own page.
    assertThat(run.sweepDir(TwoSweepsTestCases.class, "first").resolve("index.html")).exists();
    assertThat(run.sweepDir(TwoSweepsTestCases.class, "second").resolve("index.html")).exists();
  }

  /** What one fixture run wrote: its Allure results and LLMBench's folder of its sweep. */
  private record Pages(List<JsonNode> allure, Path sweepDir, Class<?> fixture) {

    static Pages of(Class<?> fixture, Path results) {
      List<JsonNode> allure = BenchKit.runWithAllure(fixture, results);
      Path dir = results.resolveSibling(results.getFileName() + "-llmbench").resolve(fixture.getName().replace('$', '.') + ".sweep");
      return new Pages(allure, dir, fixture);
    }

    JsonNode allureSummary() {
      return allure.stream().filter(r -> r.path("name").asText().equals("sweep · sweep summary")).findFirst().orElseThrow();
    }

    JsonNode allureLevel(String label) {
      return allure.stream().filter(r -> r.path("name").asText().endsWith(" " + label)).findFirst().orElseThrow();
    }

    String table() throws IOException {
      return Files.readString(sweepDir.resolve("table.txt"));
    }

    String html() throws IOException {
      return Files.readString(sweepDir.resolve("index.html"));
    }

    void assertVerdict(String status, List<String> reasons) throws IOException {
      assertVerdict(status, reasons, "instant");
    }

    void assertVerdict(String status, List<String> reasons, String profile) throws IOException {
      String note = simulator(profile);
      String line = "verdict: " + status.toUpperCase(java.util.Locale.ROOT) + (reasons.isEmpty() ? "" : ": " + String.join("; ", reasons))
          + " (" + note + ")";
      // The console's table and table.txt start with it.
      assertThat(table()).startsWith(line + "\n");
      // The sweep's page: the verdict is the first thing under the title, its reasons listed.
      String html = html();
      int title = html.indexOf("</h2>");
      assertThat(html.indexOf("<div class=\"verdict " + status + "\"><h2>Verdict: " + status + "</h2>")).isEqualTo(title + 5);
      reasons.forEach(r -> assertThat(html).contains("<li>" + r.replace("<", "&lt;").replace(">", "&gt;") + "</li>"));
      assertThat(html).contains("<p class=\"simulator\">M" + note.substring(1));
      // sweep.json says it first, as data.
      JsonNode json = new ObjectMapper().readTree(sweepDir.resolve("sweep.json").toFile());
      assertThat(json.fieldNames().next()).isEqualTo("title");
      assertThat(json.path("verdict").path("status").asText()).isEqualTo(status);
      List<String> jsonReasons = new java.util.ArrayList<>();
      json.path("verdict").path("reasons").forEach(r -> jsonReasons.add(r.asText()));
      assertThat(jsonReasons).isEqualTo(reasons);
      assertThat(json.path("verdict").path("simulator").asText()).isEqualTo(profile);
      // Allure's sweep summary: its status, the reasons as its message, the verdict first in its description.
      JsonNode summary = allureSummary();
      assertThat(summary.path("status").asText()).isEqualTo(status);
      if (reasons.isEmpty()) {
        assertThat(summary.path("statusDetails").path("message").isMissingNode() || summary.path("statusDetails").isNull()
            || summary.path("statusDetails").path("message").isNull()).isTrue();
      } else {
        assertThat(summary.path("statusDetails").path("message").asText())
            .isEqualTo(status.toUpperCase(java.util.Locale.ROOT) + ": " + String.join("; ", reasons) + " (" + note + ")");
      }
      assertThat(summary.path("descriptionHtml").asText()).startsWith("<div class=\"verdict " + status + "\"><h2>Verdict: " + status + "</h2>");
    }
  }

  // ----- fixtures

  @LlmEndpoint(embeddedProfile = "instant")
  static class FailedLevelTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      if (r.concurrency() == 2) throw new AssertionError("too slow at C=2\nsecond line");
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class LabelledFailureTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      throw new AssertionError("C=1: 2 of 4 requests too slow");
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class FailedAfterSweepTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    @Slo(ttft = "10s", percentile = 90)
    void sweep(SweepLevelResult r) {}

    @AfterSweep
    void scales(SweepResult sweep) {
      throw new AssertionError("throughput did not scale");
    }
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms", embeddedFaults = "http500:every2")
  static class MissedSloTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    @Slo(ttft = "1ms", percentile = 90)
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  @Workload(maxTokens = 4)
  @Measurement(requests = 2)
  @Warmup(requests = 0)
  @TestMethodOrder(MethodOrderer.MethodName.class)
  static class TwoSweepsTestCases {
    @ConcurrencySweep(1)
    void first(SweepLevelResult r) {}

    @ConcurrencySweep(1)
    void second(SweepLevelResult r) {
      throw new AssertionError("no answer");
    }
  }

  /**
   * fixed-20ms decodes a token per 20 ms step: it misses a 10 ms TPOT at any load (a late first chunk would have to
   * hide 150 ms of its 16 tokens' 320 ms); instant's ~1 ms holds it on a busy machine too.
   */
  @LlmEndpoint
  @dev.llmbench.deployments.Deployment(name = "fast", embeddedProfile = "instant")
  @dev.llmbench.deployments.Deployment(name = "slow", embeddedProfile = "fixed-20ms")
  static class OneHoldsTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 16)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    @Slo(tpot = "10ms", percentile = 50)
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint
  @dev.llmbench.deployments.Deployment(name = "a", embeddedProfile = "fixed-20ms")
  @dev.llmbench.deployments.Deployment(name = "b", embeddedProfile = "fixed-20ms")
  static class NoneHoldsTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    @Slo(ttft = "1ms", percentile = 50)
    void sweep(SweepLevelResult r) {}
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class PassingTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {}
  }
}
