package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Agents through the Jupiter engine: against a stub that records every request, each turn resends its history with
 * the live reply, a tool's result follows the turn that called it, the trace's tool time passes before the next
 * turn, and sub-agents share the parent's system prompt and all end before its next turn; against the embedded
 * engine, AIPerf's sessions run closed and open loop with their figures per agent; bad input refused before load.
 */
class AgentsTests {

  private static final String DIR = AgentTraceReaderTests.DIR;

  private static AgentWorkload workload(SweepLevelResult r) {
    return (AgentWorkload) ((MeasuredLevel) r).plan().workload().prompts().sessions().orElseThrow();
  }

  private static AgentsFeature.Figures figures(SweepLevelResult r) {
    return AgentsFeature.figures(workload(r), (MeasuredLevel) r).orElseThrow();
  }

  /**
   * Every agent the level started ran whole, and they were the {@code asked}: the runner counts an agent's sub-agents'
   * turns with it as it starts, so a count-bounded level starts no agent more.
   */
  private static AgentsFeature.Figures whole(SweepLevelResult r, int asked) {
    AgentsFeature.Figures f = figures(r);
    assertThat(f.started()).isEqualTo(asked);
    assertThat(f.completed()).isEqualTo(f.started());
    assertThat(r.requests()).hasSize(f.agents().stream().mapToInt(AgentRuns.Agent::requests).sum());
    return f;
  }

  private static FeatureSection section(SweepLevelResult r) {
    return new AgentsFeature(workload(r)).level(null, (MeasuredLevel) r).orElseThrow();
  }

  @Test
  void eachTurnResendsItsLiveHistoryAfterItsToolTimeAndSubAgentsEndBeforeTheParentsNextTurn() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(SemanticsCases.class, "llmbench.base-url", stub.url())).passed("C=1");
      // By the session header: the runner's id of each agent, and "<parent>/<turn>.<n>" of each sub-agent.
      Map<String, List<JsonNode>> bySession = new LinkedHashMap<>();
      List<String> order = new ArrayList<>();
      for (StubEngine.Received r : stub.received()) {
        String id = r.headers().get("x-session-id");
        if (id == null) continue; // the readiness probe's
        bySession.computeIfAbsent(id, k -> new ArrayList<>()).add(r.body());
        order.add(id);
      }
      assertThat(bySession).hasSize(4);
      List<String> ids = new ArrayList<>(bySession.keySet());
      String a1 = ids.get(0);
      // The sub-agents run in parallel: which reaches the server first is the server's to say.
      assertThat(ids).containsExactlyInAnyOrder(a1, a1 + "/1.0", a1 + "/1.1", ids.get(3));
      assertThat(ids.get(3)).doesNotStartWith(a1);
      List<JsonNode> turns = bySession.get(a1);
      assertThat(turns).extracting(b -> b.path("messages").size()).containsExactly(2, 4, 6);
      assertThat(turns).extracting(b -> b.path("max_tokens").asInt()).containsExactly(4, 4, 4);
      for (int t = 1; t < turns.size(); t++) {
        JsonNode before = turns.get(t - 1).path("messages");
        JsonNode now = turns.get(t).path("messages");
        for (int m = 0; m < before.size(); m++) assertThat(now.get(m)).isEqualTo(before.get(m)); // its history, as sent
        assertThat(now.get(before.size()).path("role").asText()).isEqualTo("assistant");
        assertThat(now.get(before.size()).path("content").asText()).isEqualTo("t ".repeat(4)); // the live reply
      }
      JsonNode first = turns.get(0).path("messages");
      assertThat(first.get(0).path("content").asText()).isEqualTo("You are a coding agent.");
      assertThat(first.get(1).path("content").asText()).endsWith(" Fix the failing test in the parser."); // after its marker
      assertThat(turns.get(1).path("messages").get(3).path("content").asText()).startsWith("[tool result] ");
      assertThat(turns.get(2).path("messages").get(5).path("content").asText()).isEqualTo("Apply the fix and summarise it.");
      // The sub-agents: their parent's system prompt first (the prefix they share), their own turns, their own marker.
      List<JsonNode> explore = bySession.get(a1 + "/1.0");
      assertThat(explore).extracting(b -> b.path("messages").size()).containsExactly(2, 4);
      assertThat(explore).extracting(b -> b.path("max_tokens").asInt()).containsExactly(3, 3);
      assertThat(explore.get(0).path("messages").get(0).path("content").asText()).isEqualTo("You are a coding agent.");
      assertThat(explore.get(0).path("messages").get(1).path("content").asText())
          .endsWith(" Find where the parser reads numbers.").isNotEqualTo(first.get(1).path("content").asText());
      // Fanned out once turn 1 is answered; turn 2 only once both have ended.
      int turn1 = order.indexOf(a1) + 1;
      int turn2 = order.lastIndexOf(a1);
      for (String sub : List.of(a1 + "/1.0", a1 + "/1.1")) {
        assertThat(order.indexOf(sub)).as(sub).isGreaterThan(turn1);
        assertThat(order.lastIndexOf(sub)).as(sub).isLessThan(turn2);
      }
    }
  }

  @LlmEndpoint
  static class SemanticsCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 8)
    @Warmup(requests = 0)
    @AgentTrace(value = DIR + "agents.jsonl", affinityHeader = "X-Session-ID")
    void sweep(SweepLevelResult r) {
      assertThat(r.requests()).hasSize(8); // a1: 3 turns, its sub-agents 2 and 1; a2: 2 turns
      AgentsFeature.Figures f = figures(r);
      assertThat(f.agents()).hasSize(2);
      AgentRuns.Agent a1 = f.agents().get(0);
      AgentRuns.Agent a2 = f.agents().get(1);
      assertThat(a1.turns()).isEqualTo(3);
      assertThat(a1.subAgents()).isEqualTo(2);
      assertThat(a1.complete()).isTrue();
      // The tool's 200 ms passed between the reply to turn 0 and turn 1, and the agent's wall time holds it.
      assertThat(a1.toolNanos()).isEqualTo(200_000_000L);
      assertThat(a1.wallNanos()).isGreaterThan(a1.toolNanos() + a1.modelNanos());
      assertThat(a2.turns()).isEqualTo(2);
      assertThat(a2.toolNanos()).isEqualTo(50_000_000L);
      assertThat(a2.subAgents()).isZero();
      assertThat(f.completed()).isEqualTo(2);
      // Output tokens the stub counted: a1's three turns and its sub-agents' three.
      assertThat(a1.outputTokens()).isEqualTo(3 * 4 + 2 * 3 + 3);
      // The lanes: a1's three turns and its two sub-agents' rows, inside the wait between its turns 2 and 3.
      AgentRuns.Lane lane = f.lanes().get(0);
      assertThat(lane.turns()).hasSize(3);
      assertThat(lane.subAgents()).extracting(List::size).containsExactlyInAnyOrder(2, 1);
      for (List<long[]> sub : lane.subAgents()) {
        assertThat(sub.get(0)[0]).isGreaterThanOrEqualTo(lane.turns().get(1)[1]);
        assertThat(sub.get(sub.size() - 1)[1]).isLessThanOrEqualTo(lane.turns().get(2)[0]);
      }
      String svg = AgentLanes.svg("agents", f.lanes());
      assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"").endsWith("</svg>")
          .contains(">agent 1</text>", ">agent 2</text>");
      assertThat(svg.split("fill=\"#e07b00\"", -1)).hasSize(1 + 3); // the sub-agents' three turns
    }
  }

  /**
   * A sub-agent marked {@code fork} starts from its parent's history, the parent's live reply included, so the server
   * can serve that whole prefix from its cache; one without starts fresh, from the parent's system prompt.
   */
  @Test
  void aForkedSubAgentStartsFromItsParentsLiveHistoryAndAFreshOneFromItsSystemPrompt() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(ForkCases.class, "llmbench.base-url", stub.url())).passed("C=1");
      Map<String, List<JsonNode>> bySession = new LinkedHashMap<>();
      for (StubEngine.Received r : stub.received()) {
        String id = r.headers().get("x-session-id");
        if (id != null) bySession.computeIfAbsent(id, k -> new ArrayList<>()).add(r.body());
      }
      String a = bySession.keySet().iterator().next();
      JsonNode parent = bySession.get(a).get(0).path("messages");
      JsonNode fork = bySession.get(a + "/0.0").get(0).path("messages");
      JsonNode fresh = bySession.get(a + "/0.1").get(0).path("messages");
      // The fork: the parent's system prompt and first message, its live reply, then its own message.
      assertThat(fork).hasSize(4);
      assertThat(fork.get(0)).isEqualTo(parent.get(0));
      assertThat(fork.get(1)).isEqualTo(parent.get(1));
      assertThat(fork.get(2).path("role").asText()).isEqualTo("assistant");
      assertThat(fork.get(2).path("content").asText()).isEqualTo("t ".repeat(4));
      assertThat(fork.get(3).path("content").asText()).endsWith(" Check the edge cases of the plan.");
      // The fresh one: the parent's system prompt, then its own message.
      assertThat(fresh).hasSize(2);
      assertThat(fresh.get(0)).isEqualTo(parent.get(0));
      assertThat(fresh.get(1).path("content").asText()).endsWith(" List the files.");
    }
  }

  @LlmEndpoint
  static class ForkCases {
    @ConcurrencySweep({1})
    @Workload(maxTokens = 8)
    @Warmup(requests = 0)
    @AgentTrace(value = DIR + "fork.jsonl", affinityHeader = "X-Session-ID")
    void sweep(SweepLevelResult r) {
      assertThat(whole(r, 1).subAgents()).isEqualTo(2);
    }
  }

  @Test
  void aToolTimeScaleShortensEveryGap() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(ScaledCases.class, "llmbench.base-url", stub.url())).passed("C=2");
    }
  }

  @LlmEndpoint
  static class ScaledCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 8)
    @Warmup(requests = 0)
    @AgentTrace(value = DIR + "agents.jsonl", toolTimeScale = 0.25, agents = 4)
    void sweep(SweepLevelResult r) {
      // a1, a2, a1, a2: no agent more
      assertThat(whole(r, 4).agents()).extracting(AgentRuns.Agent::toolNanos)
          .containsExactly(50_000_000L, 12_500_000L, 50_000_000L, 12_500_000L);
    }
  }

  @Test
  void aiperfSessionsRunClosedLoopWithTheirFiguresPerAgent() {
    assertThat(BenchKit.run(MooncakeCases.class)).passed("C=2");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class MooncakeCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 8)
    @AgentTrace(value = DIR + "mooncake-sessions.jsonl", format = AgentTrace.Format.MOONCAKE)
    void sweep(SweepLevelResult r) {
      assertThat(r.requests()).hasSize(3 + 2 + 1);
      assertThat(r.errorRate()).isZero();
      AgentsFeature.Figures f = figures(r);
      assertThat(f.started()).isEqualTo(3);
      assertThat(f.completed()).isEqualTo(3);
      assertThat(f.agents()).extracting(AgentRuns.Agent::turns).containsExactly(3, 2, 1);
      FeatureSection s = section(r);
      assertThat(s.console()).hasSize(5);
      assertThat(s.console().get(0)).isEqualTo("C=2 | agents: 3 agents (3 sessions with sub-agents) of "
          + "mooncake-sessions.jsonl, tool time x1");
      assertThat(s.console().get(1)).matches(Messages.pattern("C=2 | 3 agents, 3 completed, 0 sub-agents, 2.0 turns "
          + "each; wall p50 {n} ms, p90 {n} ms; time in the model {n}%, in tools {n}%, waiting for sub-agents 0.0%"));
      // No sub-agents: the critical path is the agent's own turns and tool gaps.
      assertThat(s.console().get(2)).matches(Messages.pattern("C=2 | critical path p50 {n} ms, p90 {n} ms: in the model "
          + "{n}%, in tools {n}%, other {n}%; through sub-agents 0.0%"));
      // The embedded engine says what it served from its prefix cache: each turn's history, after the first.
      assertThat(s.console().get(3)).matches(Messages.pattern("C=2 | by turn: TTFT p50 {n}, {n}, {n} ms; cached 0.0%, "
          + "{n}%, {n}%"));
      assertThat(s.console().get(4)).matches(Messages.pattern("C=2 | by prompt length: <1K TTFT p50 {n} ms, cached {n}%"));
      assertThat(f.byTurn()).extracting(TurnRows::requests).containsExactly(3, 2, 1);
      JsonNode json = s.json().orElseThrow();
      assertThat(json.path("agents_completed").asInt()).isEqualTo(3);
      assertThat(json.path("tool_share").asDouble()).isGreaterThan(0);
    }
  }

  @Test
  void wekaConversationsRunWithTheirSubAgents() {
    assertThat(BenchKit.run(WekaCases.class)).passed("C=2");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class WekaCases {
    @ConcurrencySweep({2})
    @Workload(maxTokens = 8)
    @AgentTrace(value = DIR + "weka.jsonl", format = AgentTrace.Format.WEKA)
    void sweep(SweepLevelResult r) {
      AgentsFeature.Figures f = whole(r, 2);
      assertThat(f.agents()).extracting(AgentRuns.Agent::requests).startsWith(3 + 2, 1);
      assertThat(f.agents().get(0).subAgents()).isEqualTo(1);
      assertThat(f.agents().get(0).toolNanos()).isEqualTo(110_000_000L);
    }
  }

  @Test
  void agentsArriveAtARateUnderARateSweep() {
    assertThat(BenchKit.run(OpenCases.class)).passed("rate=20/s");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class OpenCases {
    @RateSweep({20})
    @Workload(maxTokens = 4)
    @AgentTrace(value = DIR + "agents.jsonl", agents = 6, toolTimeScale = 0.1)
    void sweep(SweepLevelResult r) {
      AgentsFeature.Figures f = whole(r, 6);
      assertThat(f.agents().subList(0, 6)).extracting(AgentRuns.Agent::requests).containsExactly(6, 2, 6, 2, 6, 2);
    }
  }

  @Test
  void aReplayStartsEachAgentOnceAtItsTimeScaled() {
    assertThat(BenchKit.run(ReplayCases.class)).passed("agents x2", "agents x4");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ReplayCases {
    @AgentReplay(timeScale = {2, 4})
    @Workload(maxTokens = 8)
    @AgentTrace(value = DIR + "mooncake-sessions.jsonl", format = AgentTrace.Format.MOONCAKE)
    void sweep(SweepLevelResult r) {
      assertThat(r.requests()).hasSize(3 + 2 + 1);
      // In the order of their starts: sess-1 and row-6 at 0 ms, sess-2 at 40 ms (20 or 10 ms once scaled).
      assertThat(figures(r).agents()).extracting(AgentRuns.Agent::turns).containsExactly(3, 1, 2);
      long[] due = ((MeasuredLevel) r).metrics().stream().filter(m -> m.trace().turn() == 0)
          .mapToLong(m -> m.trace().scheduledNanos()).sorted().toArray();
      double scale = Double.parseDouble(r.label().substring("agents x".length()));
      assertThat(due).hasSize(3);
      assertThat(due[1] - due[0]).isZero();
      assertThat(due[2] - due[0]).isEqualTo(Math.round(40 / scale * 1e6));
    }
  }

  @Test
  void aReplayBesideAConcurrencySweepIsAConfigurationError() {
    assertThat(BenchKit.run(ReplayAndSweepCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[ReplayAndSweepCases#sweep]: an @AgentReplay starts the agents at the trace's own times, so it is not "
            + "also a @ConcurrencySweep; to run the agents under a concurrency or a rate instead, keep @AgentTrace and "
            + "drop @AgentReplay");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ReplayAndSweepCases {
    @AgentReplay
    @ConcurrencySweep({1})
    @AgentTrace(DIR + "agents.jsonl")
    void sweep(SweepLevelResult r) {}
  }

  @Test
  void syntheticAgentsFanOutSubAgentsThatShareTheirSystemPrompt() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(SyntheticCases.class, "llmbench.base-url", stub.url())).passed("C=2");
      List<JsonNode> bodies = stub.received().stream().filter(q -> q.headers().containsKey("x-agent"))
          .map(StubEngine.Received::body).toList();
      assertThat(bodies).hasSize(4 * 11); // 4 whole agents, none more (see whole())
      // Every agent and sub-agent opens with the one system prompt of 20 words.
      assertThat(bodies).extracting(b -> b.path("messages").get(0).path("content").asText())
          .containsOnly(BlockWords.system(20));
      assertThat(bodies).extracting(b -> b.path("max_tokens").asInt()).containsOnly(4);
    }
  }

  @LlmEndpoint
  static class SyntheticCases {
    @ConcurrencySweep({2})
    @Warmup(requests = 0)
    @SyntheticAgents(agents = 4, turns = "3", systemTokens = 20, turnTokens = "10", outputTokens = "4",
        toolTimeMillis = "5", fanOut = 1, fanOutWidth = "2", subAgentTurns = "2", affinityHeader = "X-Agent")
    void sweep(SweepLevelResult r) {
      // Each agent: 3 turns, and after each of its first two, 2 sub-agents of 2 turns.
      AgentsFeature.Figures f = whole(r, 4);
      assertThat(f.agents()).extracting(AgentRuns.Agent::requests).containsOnly(3 + 2 * 2 * 2);
      assertThat(f.subAgents()).isEqualTo(4 * f.started());
      assertThat(f.agents()).allSatisfy(a -> assertThat(a.toolNanos()).isEqualTo(10_000_000L));
      assertThat(section(r).console().get(0)).isEqualTo("C=2 | agents: synthetic agents: turns 3, system prompt 20 "
          + "tokens, turns of 10 tokens, max_tokens 4, tool time 5 ms, fan-out 1.0 x 2 sub-agents of 2 turns, tool time "
          + "x1, session header X-Agent");
    }
  }

  @Test
  void syntheticAgentsAndATraceTogetherAreAConfigurationError() {
    assertThat(BenchKit.run(BothCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[BothCases#sweep]: @AgentTrace and @SyntheticAgents each bring the agents: keep one of them");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class BothCases {
    @ConcurrencySweep({1})
    @AgentTrace(DIR + "agents.jsonl")
    @SyntheticAgents
    void sweep(SweepLevelResult r) {}
  }

  @Test
  void laterTurnsThatPrefillTheirWholeHistoryAgainAreFoundSlower() {
    // The stub caches nothing and prefills 10 ms a token: turn 3 (about 3 x 34 tokens) some 700 ms slower than turn 1.
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).prefillPerToken(Duration.ofMillis(10))
        .blockSize(100_000).start()) {
      assertThat(BenchKit.run(SlowerCases.class, "llmbench.base-url", stub.url())).passed("C=4");
    }
  }

  @LlmEndpoint
  static class SlowerCases {
    @ConcurrencySweep({4})
    @Workload(maxTokens = 4)
    @Warmup(requests = 0)
    @SyntheticAgents(agents = 12, turns = "3", systemTokens = 0, turnTokens = "30", outputTokens = "4",
        toolTimeMillis = "0", fanOut = 0)
    void sweep(SweepLevelResult r) {
      List<String> findings = figures(r).findings("C=4");
      assertThat(findings).hasSize(1);
      assertThat(findings.get(0)).matches(Messages.pattern("C=4: the agents' TTFT grows with the turn beyond noise: turn "
          + "3's median is {n} ms against turn 1's {n} ms (x{n}; their interquartile ranges do not overlap), at {n} "
          + "prompt tokens against {n}"));
      assertThat(section(r).console()).contains("C=4 | finding: " + findings.get(0));
    }
  }

  @Test
  void aBadTraceFailsBeforeLoadWithFileLineAndField() {
    assertThat(BenchKit.run(BadCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[BadCases#sweep]: @AgentTrace(format = LLMBENCH): " + DIR + "cycle.jsonl line 1, field \"parent\": "
            + "\"b\" closes a cycle of parents: a -> b -> a; expected parents that end at a session without one");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class BadCases {
    @ConcurrencySweep({1})
    @AgentTrace(DIR + "cycle.jsonl")
    void sweep(SweepLevelResult r) {}
  }

  @Test
  void countingRequestsInsteadOfAgentsIsAConfigurationError() {
    assertThat(BenchKit.run(RequestCountCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[RequestCountCases#sweep]: an agents' level sends whole agents: count them with "
            + "@AgentTrace(agents = N) or @SyntheticAgents(agents = N) instead of @Measurement's requests or rounds (or "
            + "llmbench.sweep.requests / rounds), or bound the level with @Measurement(duration)");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class RequestCountCases {
    @ConcurrencySweep({1})
    @Measurement(requests = 10)
    @AgentTrace(DIR + "agents.jsonl")
    void sweep(SweepLevelResult r) {}
  }

  @Test
  void aNegativeToolTimeScaleIsAConfigurationError() {
    assertThat(BenchKit.run(ScaleCases.class)).hasSingleFailure()
        .failedWith(ExtensionConfigurationException.class).hasMessage("Configuration error: sweep on method "
            + "[ScaleCases#sweep]: @AgentTrace 'toolTimeScale' must be 0 or more (1 as recorded, 0 for no tool time), "
            + "was -1.0");
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class ScaleCases {
    @ConcurrencySweep({1})
    @AgentTrace(value = DIR + "agents.jsonl", toolTimeScale = -1)
    void sweep(SweepLevelResult r) {}
  }
}
