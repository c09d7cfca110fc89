package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Workload;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Capacity per tier: one search over agents in flight, every probe judged against every tier, each tier's bracket
 * closed on its own; against a stub whose every token takes 20 ms more per further request in flight, so that the
 * answer is known.
 */
class AgentCapacityTests {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A tier no load holds closes at the low end after one probe; one every load holds is followed, doubling, to the high
   * end: probes of 1, 2 and 4 agents, whatever the machine's speed.
   */
  @Test
  void eachTierKeepsItsOwnBracketAndTheSearchGoesOnUntilEveryOneIsClosed() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      BenchKit.Run run = BenchKit.run(TwoTierCases.class, "llmbench.base-url", stub.url());
      assertThat(run).test("probe 1: agents=1").succeeded();
      assertThat(run).test("probe 2: agents=2").succeeded();
      assertThat(run).test("probe 3: agents=4").succeeded();
      assertThat(run.tests().started().count()).isEqualTo(4);
      assertThat(run.tests().succeeded().filter(e -> e.getTestDescriptor().getDisplayName().matches(Messages.pattern(
          "capacity: strict: holds no probed number of agents (fails at 1: TPOT p90 {duration} above 1 µs); confidence "
              + "100% (1 fails in 100% of resamples); relaxed: holds 4 agents (the most probed); confidence 100% (4 holds "
              + "in 100% of resamples)"))).count()).isEqualTo(1);
    }
  }

  @LlmEndpoint
  static class TwoTierCases {
    @AgentCapacity(agents = {1, 4}, tiers = {
        @AgentTier(name = "strict", tpotMillis = 0.001),
        @AgentTier(name = "relaxed", ttftMillis = 60_000)})
    @Workload(maxTokens = 4)
    @SyntheticAgents(turns = "2", systemTokens = 0, turnTokens = "10", outputTokens = "4", toolTimeMillis = "0", fanOut = 0)
    void capacity(AgentCapacities found) {
      assertThat(found.tier("strict").agents()).isZero();
      assertThat(found.tier("strict").failedAt()).isEqualTo(OptionalInt.of(1));
      assertThat(found.tier("strict").closed()).isTrue();
      assertThat(found.tier("relaxed").agents()).isEqualTo(4);
      assertThat(found.tier("relaxed").failedAt()).isEmpty();
      assertThat(found.tier("relaxed").closed()).isTrue();
      // No resample of the probes' requests comes near either ceiling: both answers are sure.
      assertThat(found.tier("strict").confidence()).isEqualTo(1.0);
      assertThat(found.tier("strict").holdsConfidence()).isNaN();
      assertThat(found.tier("relaxed").confidence()).isEqualTo(1.0);
      assertThat(found.tier("relaxed").failsConfidence()).isNaN();
      AgentCapacitiesAssert.assertThat(found).hasConfidenceAtLeast(0.95);
    }
  }

  /**
   * TPOT at C requests in flight is about 1 + 20 (C - 1) ms: 1 at one agent, 21 at two, 41 at three. The middle tier's
   * ceiling of 31 ms lies 10 ms from both, so it holds 2 agents and fails at 3, found by probes of 1, 2, 4 and 3.
   */
  @Test
  @Tag("timing")
  void aTierBetweenTwoLoadsIsFoundBetweenThemAndTheSweepSaysWhatBroke() throws IOException {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).perExtraInFlight(Duration.ofMillis(20)).start()) {
      BenchKit.Run run = BenchKit.run(KnownAnswerCases.class, "llmbench.base-url", stub.url());
      assertThat(run).test("probe 1: agents=1").succeeded();
      assertThat(run).test("probe 4: agents=3").succeeded();
      Path dir = run.sweepDir(KnownAnswerCases.class, "capacity");
      String table = Files.readString(dir.resolve("table.txt"));
      assertThat(table).containsPattern(Messages.pattern("capacity middle: holds 2 agents (fails at 3: TPOT p90 {duration} "
          + "above 31.0 ms)").substring(4));
      JsonNode sweep = JSON.readTree(dir.resolve("sweep.json").toFile());
      assertThat(sweep.toString()).contains("\"capacity_by_tier\"");
      JsonNode middle = sweep.findValue("capacity_by_tier").get(0);
      assertThat(middle.path("confidence").asDouble()).isEqualTo(middle.path("holds_confidence").asDouble()
          * middle.path("fails_confidence").asDouble());
    }
  }

  @LlmEndpoint
  static class KnownAnswerCases {
    @AgentCapacity(agents = {1, 8}, tiers = @AgentTier(name = "middle", tpotMillis = 31))
    @Workload(maxTokens = 8)
    @SyntheticAgents(turns = "3", systemTokens = 0, turnTokens = "10", outputTokens = "8", toolTimeMillis = "0", fanOut = 0)
    void capacity(AgentCapacities found) {
      assertThat(found.tier("middle").agents()).isEqualTo(2);
      assertThat(found.tier("middle").failedAt()).isEqualTo(OptionalInt.of(3));
      AgentCapacitiesAssert.assertThat(found).holds("middle", 2).isSettled();
      // 10 ms either side of the ceiling: resamples of either probe's requests hardly ever cross it.
      AgentCapacitiesAssert.assertThat(found).hasConfidenceAtLeast(0.9);
    }
  }

  /**
   * A trace's probe fills its slots: 2 agents per slot, wrapping round a trace of fewer sessions, and every session at
   * least once; a declared count is kept.
   */
  @Test
  void aProbeOfATraceSendsTwoAgentsPerSlotWrappingRoundTheTrace() {
    AgentTraceReader.Read trace = AgentTraceReader.read(Path.of(AgentTraceReaderTests.DIR + "agents.jsonl"),
        AgentTrace.Format.LLMBENCH, 0);
    assertThat(trace.sessions()).hasSize(2);
    AgentWorkload agents = new AgentWorkload(trace, 1, 0, 8, null);
    assertThat(agents.agentsPerProbe(1)).isEqualTo(4);
    assertThat(agents.agentsPerProbe(8)).isEqualTo(16);
    assertThat(new AgentWorkload(trace, 1, 3, 8, null).agentsPerProbe(8)).isEqualTo(3);
  }

  private static dev.llmbench.client.RequestResult ttft(long ms) {
    return dev.llmbench.internal.metrics.RequestMetrics.of(dev.llmbench.internal.client.RequestTrace.builder()
        .times(0, 0, (ms + 10) * 1_000_000L).token(ms * 1_000_000L, true, false).token((ms + 10) * 1_000_000L, true, false)
        .build());
  }

  /**
   * How sure a probe is: the share of resamples of its requests in which the tier held; 1 far below the ceiling, 0 far
   * above, between them when the percentile sits on the ceiling's edge.
   */
  @Test
  void aProbesConfidenceIsTheShareOfResamplesInWhichTheTierHeld() throws NoSuchMethodException {
    AgentTier tier = Tiers.class.getDeclaredMethod("capacity").getAnnotation(AgentCapacity.class).tiers()[0];
    java.util.List<dev.llmbench.client.RequestResult> fast = java.util.Collections.nCopies(20, ttft(100));
    java.util.List<dev.llmbench.client.RequestResult> slow = java.util.Collections.nCopies(20, ttft(300));
    java.util.List<dev.llmbench.client.RequestResult> edge = new java.util.ArrayList<>(java.util.Collections.nCopies(17,
        ttft(100)));
    edge.addAll(java.util.Collections.nCopies(3, ttft(300)));
    assertThat(TierSearch.heldShare(tier, fast)).isEqualTo(1.0);
    assertThat(TierSearch.heldShare(tier, slow)).isEqualTo(0.0);
    // p90 of 17 at 100 ms and 3 at 300 ms is 300 ms: it broke, but a resample with fewer slow ones holds.
    double share = TierSearch.heldShare(tier, edge);
    assertThat(share).isGreaterThan(0.0).isLessThan(0.5);
    assertThat(TierSearch.heldShare(tier, edge)).isEqualTo(share); // the same requests, the same confidence
  }

  static class Tiers {
    @AgentCapacity(agents = {1, 2}, tiers = @AgentTier(name = "t", ttftMillis = 200))
    void capacity() {}
  }

  @Test
  void anAssertionOnATierQuotesItsAnswerAndWhatBrokeIt() {
    AgentCapacities found = new AgentCapacities(java.util.List.of(new AgentCapacities.Tier("interactive", 4,
        OptionalInt.of(5), "TTFT p90 1.4 s above 1.0 s", true), new AgentCapacities.Tier("background", 8,
        OptionalInt.of(32), "TTFT p90 12 s above 10 s", false)));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentCapacitiesAssert.assertThat(found).holds("interactive", 8))
        .hasMessage("expected tier \"interactive\" to hold at least 8 agents but the search found: interactive: holds 4 "
            + "agents (fails at 5: TTFT p90 1.4 s above 1.0 s)");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentCapacitiesAssert.assertThat(found).holds("batch", 1))
        .hasMessage("expected tier \"batch\" to hold at least 1 agent but no tier named \"batch\"; the tiers are "
            + "[interactive, background]");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentCapacitiesAssert.assertThat(found).isSettled())
        .hasMessage("expected every tier's bracket closed but: background: holds 8 agents (fails at 32: TTFT p90 12 s "
            + "above 10 s), bracket not closed");
    AgentCapacitiesAssert.assertThat(found).holds("interactive", 4).holds("background", 8);
    AgentCapacities unsure = new AgentCapacities(java.util.List.of(new AgentCapacities.Tier("interactive", 4,
        OptionalInt.of(5), "TTFT p90 1.1 s above 1.0 s", true, 0.45, 0.9, 0.5), new AgentCapacities.Tier("background", 8,
        OptionalInt.empty(), "", true, 0.99, 0.99, Double.NaN)));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentCapacitiesAssert.assertThat(unsure).hasConfidenceAtLeast(0.9))
        .hasMessage("expected every tier's answer at least 90% sure but: interactive: holds 4 agents (fails at 5: TTFT "
            + "p90 1.1 s above 1.0 s); confidence 45% (4 holds in 90% of resamples, 5 fails in 50%)");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentCapacitiesAssert.assertThat(found).hasConfidenceAtLeast(0.5))
        .hasMessageStartingWith("expected every tier's answer at least 50% sure but: interactive: holds 4 agents");
    AgentCapacitiesAssert.assertThat(unsure).hasConfidenceAtLeast(0.4);
  }

  @Test
  void aSearchWithoutItsAgentsIsAConfigurationError() {
    assertThat(BenchKit.run(NoAgentsCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[NoAgentsCases#capacity]: @AgentCapacity searches over agents: declare one of @AgentTrace or "
            + "@SyntheticAgents beside it");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class NoAgentsCases {
    @AgentCapacity(agents = {1, 4}, tiers = @AgentTier(name = "interactive", ttftMillis = 1000))
    void capacity(AgentCapacities found) {}
  }

  @Test
  void aTierWithoutACeilingIsAConfigurationError() {
    assertThat(BenchKit.run(NoCeilingCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[NoCeilingCases#capacity]: @AgentTier \"background\" needs a ttftMillis or tpotMillis ceiling above 0 (and "
            + "neither negative)");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class NoCeilingCases {
    @AgentCapacity(agents = {1, 4}, tiers = @AgentTier(name = "background"))
    @SyntheticAgents
    void capacity(AgentCapacities found) {}
  }
}
