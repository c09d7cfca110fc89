package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code @Slo(abortOnFail = true)}: a level stops sending once its SLO can no longer be met, and is reported with what
 * it measured. The embedded engine's fixed-20ms profile takes 20 ms per token; an SLO of TPOT ≤ 10 ms at p90 is missed
 * by every request, one of 100 ms by none.
 */
class SloAbortTests {

  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aLevelThatCanNoLongerMeetItsSloStopsSendingAndIsReportedWithWhatItMeasured() throws Exception {
    BenchKit.Run run = BenchKit.run(AbortingTestCases.class);
    assertThat(run).passed("C=2", "C=2"); // tooSlow's level and fastEnough's
    // 20 planned at p90: at most floor(20 x 0.1) = 2 may miss; the third miss stops sending. With 2 in flight, the two
    // misses before it each freed a slot for one more request: 4 sent, perhaps 5 when completions arrive together.
    JsonNode slow = JSON.readTree(level(run, "tooSlow").toFile());
    assertThat(slow.path("llmbench").path("stop_reason").asText()).isEqualTo("SLO_UNREACHABLE");
    int sent = slow.path("completed").asInt() + slow.path("failed").asInt();
    assertThat(sent).as("requests sent of the 20 planned").isBetween(3, 8);
    assertThat(slow.path("requests").size()).as("every request sent is in the level's file").isEqualTo(sent);
    String warnings = slow.path("llmbench").path("warnings").toString();
    // The third miss stops it; on a busy machine a request's chunks may arrive bunched and read as fast, so the
    // third miss may be the fourth request to complete.
    java.util.regex.Matcher said = java.util.regex.Pattern.compile("stopped early: the SLO \\(TPOT ≤ 10.0 ms at p90\\) "
        + "could no longer be met: 3 of the first (\\d+) requests to complete had missed it \\(failed or over an "
        + "objective\\), and at most 2 of the 20 planned may for SLO attainment to reach 90.0%").matcher(warnings);
    assertThat(said.find()).as("in %s", warnings).isTrue();
    assertThat(Integer.parseInt(said.group(1))).isBetween(3, sent);
    assertThat(warnings).contains(sent + " of the 20 planned were sent");
    JsonNode fast = JSON.readTree(level(run, "fastEnough").toFile());
    assertThat(fast.path("llmbench").path("stop_reason").asText()).isEqualTo("REQUEST_COUNT");
    assertThat(fast.path("completed").asInt()).as("a level that meets its SLO runs to its end").isEqualTo(20);
    assertThat(java.nio.file.Files.readString(run.sweepDir(AbortingTestCases.class, "tooSlow").resolve("table.txt")))
        .contains("stopped early: SLO unreachable");
  }

  @Test
  void theSettingTurnsTheAbortOff() throws Exception {
    BenchKit.Run run = BenchKit.run(AbortingTestCases.class, "llmbench.slo.abort-on-fail", "false");
    assertThat(run).passed("C=2", "C=2"); // tooSlow's level and fastEnough's
    JsonNode slow = JSON.readTree(level(run, "tooSlow").toFile());
    assertThat(slow.path("llmbench").path("stop_reason").asText()).isEqualTo("REQUEST_COUNT");
    assertThat(slow.path("completed").asInt()).isEqualTo(20);
  }

  @Test
  void meetsSloSaysTheLevelStoppedEarly() {
    BenchKit.Run run = BenchKit.run(AssertingTestCases.class);
    // {*}: TPOT p90's own line, which a busy machine that bunches a request's chunks could leave out.
    assertThat(run).hasSingleFailedTest().failedWith(AssertionError.class).hasMessageMatching(Messages.pattern("C=2: {n} "
        + "SLO violation(s) of [TPOT ≤ 10.0 ms at p90]:\n{*}"
        + "  - SLO attainment {n}% is below the required 90.0% ({n} of {n} requests met every objective)\n"
        + "  (stopped early: the SLO (TPOT ≤ 10.0 ms at p90) could no longer be met: 3 of the first {n} requests to "
        + "complete had missed it (failed or over an objective), and at most 2 of the 20 planned may for SLO attainment "
        + "to reach 90.0% (@Slo(abortOnFail = true)); {n} of the 20 planned were sent, and each is in the level's figures)"));
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class AssertingTestCases {
    @ConcurrencySweep(2)
    @Workload(maxTokens = 5)
    @Measurement(requests = 20)
    @Warmup(requests = 0)
    @Slo(tpot = "10ms", percentile = 90, abortOnFail = true)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).allowingFewSamples().meetsSlo();
    }
  }

  private static Path level(BenchKit.Run run, String method) {
    return run.sweepDir(AbortingTestCases.class, method).resolve("C=2.json");
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  @Workload(maxTokens = 5)
  @Measurement(requests = 20)
  @Warmup(requests = 0)
  static class AbortingTestCases {

    @ConcurrencySweep(2)
    @Slo(tpot = "10ms", percentile = 90, abortOnFail = true)
    void tooSlow(SweepLevelResult level) {
      // Stopped or not, the level is measured and handed to the test: here it misses its SLO (20 ms per token).
      assertThat(level.sloAttainment()).isLessThan(0.9);
      assertThat(level.requestCount()).isPositive();
    }

    @ConcurrencySweep(2)
    @Slo(tpot = "100ms", percentile = 90, abortOnFail = true)
    void fastEnough(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors().meetsSlo();
    }
  }
}
