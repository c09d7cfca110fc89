package dev.llmbench.capacity;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.Slo;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.sessions.Sessions;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.Timing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

// The slope is sized by the lateness measured before the search: a test JVM starting beside it would change that.
@Tag("timing")
class CapacitySearchTests {

  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The known answer, from the embedded engine's step-time formula (PerformanceProfile): a decode step
   * takes {@code stepBase + stepPerExtraSequence x (batch - 1)}, and every running sequence gets one
   * token per step. A closed loop of C requests with equal max_tokens keeps them in one batch, so each
   * request's TPOT is the step at batch C: {@code TPOT(C) = 10 ms + s x (C - 1)}. The SLO is TPOT p50 at
   * most 52.5 ms, and the slope is {@code s = 42.5 ms / (k + 0.5)}: then TPOT(k + 1) = 52.5 - s/2 meets it
   * and TPOT(k + 2) = 52.5 + s/2 does not, half a slope either side, and the capacity is C = k + 1
   * (k = 8, C=9, s = 5 ms on a quiet machine). A busy machine wakes the engine late and every step picks
   * that up, so k is chosen to make half a slope at least one and a half times the measured p90
   * lateness: the search then lands on the answer, or at worst one step below it.
   */
  @Test
  void findsTheCapacityTheStepTimeFormulaGivesWithinOneStep() throws IOException {
    double minSlopeMs = Math.max(5, 3 * Timing.measure().p90().toNanos() / 1e6);
    int k = Math.max(1, (int) Math.floor(42.5 / minSlopeMs - 0.5));
    Duration slope = Duration.ofNanos(Math.round(42.5e6 / (k + 0.5)));
    int known = k + 1;
    PerformanceProfile linear = new PerformanceProfile("linear", "linear-model", Duration.ofMillis(10), slope, Duration.ZERO, 64,
        0, 1, "10 ms + " + slope.toNanos() / 1e6 + " ms per further sequence");
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(linear, 0, Duration.ZERO)) {
      BenchKit.Run run = BenchKit.run(KnownAnswerTestCases.class, "llmbench.base-url", server.baseUrl().toString());
      Path dir = run.sweepDir(KnownAnswerTestCases.class, "capacity");
      JsonNode found = JSON.readTree(dir.resolve("capacity.json").toFile()).get(0);
      String table = Files.readString(dir.resolve("table.txt"));
      assertThat(found.path("outcome").asText()).as(table).isEqualTo("FOUND");
      assertThat(found.path("capacity").asInt()).as("known answer C=%d; %s", known, table).isBetween(known - 1, known + 1);
      int answer = found.path("capacity").asInt();
      // The evidence: the levels either side, one step apart, the lower meeting the SLO and the upper not.
      assertThat(found.path("at_capacity").asText()).isEqualTo("C=" + answer);
      assertThat(found.path("beyond").asText()).isEqualTo("C=" + (answer + 1));
      assertThat(dir.resolve("C=" + answer + ".json")).exists();
      assertThat(dir.resolve("C=" + (answer + 1) + ".json")).exists();
      assertThat(table).contains("capacity under the SLO (TPOT ≤ 52.5 ms at p50): C=" + answer + "; holds at C=" + answer
          + " (TPOT p50 ").contains("fails at C=" + (answer + 1) + " (TPOT p50 ");
      // Each probe after the bounds lies strictly between the highest load that held and the lowest that
      // failed so far: what it tried depended on the probes before it.
      double held = 0;
      double failed = Double.MAX_VALUE;
      JsonNode probes = found.path("probes");
      assertThat(probes.get(0).path("label").asText()).isEqualTo("C=2");
      assertThat(probes.get(1).path("label").asText()).isEqualTo("C=16");
      for (int i = 0; i < probes.size(); i++) {
        double c = Double.parseDouble(probes.get(i).path("label").asText().substring(2));
        if (i > 1) assertThat(c).isStrictlyBetween(held, failed);
        if (probes.get(i).path("meets_slo").asBoolean()) held = Math.max(held, c);
        else failed = Math.min(failed, c);
      }
      // Each probe the report lists is a test of its own, in the order searched, then the answer's.
      List<String> tests = new ArrayList<>();
      for (int i = 0; i < probes.size(); i++) tests.add("probe " + (i + 1) + ": " + probes.get(i).path("label").asText());
      tests.add("capacity: C=" + answer);
      assertThat(run).passed(tests.toArray(String[]::new));
    }
  }

  @Test
  void anSloThatFailsAtTheLowerBoundEndsAfterOneProbeAndSaysSo() {
    BenchKit.Run run = BenchKit.run(ImpossibleTestCases.class);
    assertThat(run).test("probe 1: C=1").succeeded();
    assertThat(run).test("capacity: below C=1").failedWith(AssertionError.class).hasMessageMatching(Messages.pattern(
        "expected a capacity of at least C=1 but the search found: capacity under the SLO (TPOT ≤ 1.0 ms at p50): below "
            + "C=1: fails at C=1 (TPOT p50 {duration} > 1.0 ms; SLO attainment {n}%); searched C=1..C=8 in 1 probe, to within 1"));
    assertThat(run.tests().started().count()).isEqualTo(2);
  }

  @Test
  void anSloThatHoldsAtTheUpperBoundEndsAfterTwoProbes() {
    assertThat(BenchKit.run(EasyTestCases.class)).passed("probe 1: rate=10/s", "probe 2: rate=40/s", "capacity: at least 40 req/s");
  }

  @Test
  void eachDeploymentIsSearchedInTurn() {
    assertThat(BenchKit.run(EasyTestCases.class, "llmbench.deployments", "a=embedded:instant;b=embedded:instant")).passed(
        "probe 1: rate=10/s · a", "probe 2: rate=40/s · a", "capacity · a: at least 40 req/s",
        "probe 1: rate=10/s · b", "probe 2: rate=40/s · b", "capacity · b: at least 40 req/s");
  }

  @Test
  void aSearchWithoutAnSloIsAConfigurationError() {
    assertThat(BenchKit.run(NoSloTestCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[NoSloTestCases#capacity]: a capacity search needs an SLO "
            + "to search under: declare @Slo, e.g. @Slo(ttft = \"2s\", tpot = \"50ms\", percentile = 90)");
  }

  @Test
  void aRangeOfBothKindsIsAConfigurationError() {
    assertThat(BenchKit.run(BothRangesTestCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[BothRangesTestCases#capacity]: @CapacitySearch needs "
            + "either concurrency = {low, high} or rate = {low, high}");
  }

  @Test
  void aSearchOfSessionsReportsEachProbesFiguresByTurn() throws IOException {
    BenchKit.Run run = BenchKit.run(SessionsTestCases.class);
    assertThat(run).passed("probe 1: C=1", "probe 2: C=2", "capacity: at least C=2");
    Path dir = run.sweepDir(SessionsTestCases.class, "capacity");
    // Each probe's document has the sessions feature's section, as a sweep's level has.
    for (String probe : List.of("C=1", "C=2")) {
      JsonNode byTurn = ResultJson.read(Files.readString(dir.resolve(probe + ".json"))).path("llmbench").path("sessions")
          .path("by_turn");
      assertThat(byTurn).as(probe).hasSize(2);
      assertThat(byTurn.get(1).path("turn").asInt()).isEqualTo(2);
    }
    assertThat(Files.readString(dir.resolve("table.txt"))).contains("C=2 | by turn: TTFT p50 ");
  }

  @Test
  void withAPriceTheAnswerSaysWhatTheTokensCostAtTheCapacity() throws IOException {
    BenchKit.Run run = BenchKit.run(EasyTestCases.class, "llmbench.gpu-count", "2", "llmbench.gpu-hour-price", "1.5");
    assertThat(run).passed("probe 1: rate=10/s", "probe 2: rate=40/s", "capacity: at least 40 req/s");
    Path dir = run.sweepDir(EasyTestCases.class, "capacity");
    JsonNode found = JSON.readTree(dir.resolve("capacity.json").toFile()).get(0);
    JsonNode at = JSON.readTree(dir.resolve(dev.llmbench.internal.report.FileReporter.fileName(found.path("at_capacity")
        .asText()) + ".json").toFile());
    double perMillion = at.path("llmbench").path("token_cost").path("cost_per_million_output_tokens_usd").asDouble();
    assertThat(found.path("cost_per_million_output_tokens_usd").asDouble()).isEqualTo(perMillion);
    assertThat(perMillion).isCloseTo(2 * 1.5 * at.path("duration").asDouble() / 3600 / at.path("total_output_tokens")
        .asLong() * 1e6, within(1e-6));
    assertThat(found.path("statement").asText()).matches(Messages.pattern("capacity under the SLO (E2E ≤ 10.000 s at "
        + "p50): at least 40 req/s: holds at 40 req/s ({*}); searched 10 req/s..40 req/s in 2 probes, to within {*}; at 40 "
        + "req/s: ${n} per 1M output tokens, ${n} per 1M input tokens (2 GPUs at $1.50/GPU-h)"))
        .contains(String.format(java.util.Locale.ROOT, "$%.3f per 1M output tokens", perMillion));
  }

  // ----- fixtures

  @LlmEndpoint(embeddedProfile = "instant")
  static class SessionsTestCases {
    @CapacitySearch(concurrency = {1, 2})
    @Workload(maxTokens = 4)
    @Warmup(requests = 0)
    @Sessions(turns = "2", inputTokens = "10", sessions = 2)
    @Slo(e2eLatency = "10s", percentile = 50)
    void capacity(Capacity capacity) {
      assertThat(capacity).isAtLeast(2);
    }
  }

  static class KnownAnswerTestCases {
    @CapacitySearch(concurrency = {2, 16})
    @Workload(maxTokens = 6)
    @Warmup(requests = 0)
    @Slo(tpot = "52.5ms", percentile = 50)
    void capacity(Capacity capacity) {
      assertThat(capacity.outcome()).isEqualTo(Capacity.Outcome.FOUND);
      // Allure records parameters by toString: the same every run, whatever was found.
      assertThat(capacity.toString()).isEqualTo("capacity");
    }
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class ImpossibleTestCases {
    @CapacitySearch(concurrency = {1, 8})
    @Workload(maxTokens = 4)
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    @Slo(tpot = "1ms", percentile = 50)
    void capacity(Capacity capacity) {
      assertThat(capacity).isAtLeast(1);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class EasyTestCases {
    @CapacitySearch(rate = {10, 40})
    @Workload(maxTokens = 4)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    @Slo(e2eLatency = "10s", percentile = 50)
    void capacity(Capacity capacity, SweepLevelResult atCapacity) {
      assertThat(capacity).isAtLeast(40);
      assertThat(atCapacity).isSameAs(capacity.atCapacity().orElseThrow());
    }
  }

  static class NoSloTestCases {
    @CapacitySearch(concurrency = {1, 8})
    void capacity(Capacity capacity) {}
  }

  @Slo(tpot = "1s")
  static class BothRangesTestCases {
    @CapacitySearch(concurrency = {1, 8}, rate = {1, 2})
    void capacity(Capacity capacity) {}
  }
}
