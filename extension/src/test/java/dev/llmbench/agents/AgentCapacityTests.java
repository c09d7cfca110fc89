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
          "capacity: strict: holds no probed number of agents (fails at 1: TPOT p90 {duration} above 1 µs); relaxed: holds 4 "
              + "agents (the most probed)"))).count()).isEqualTo(1);
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
