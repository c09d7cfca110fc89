package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import dev.llmbench.testkit.StubEngine;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The critical path through fan-outs: the chain of turns, tool gaps and sub-agents' turns that set an agent's wall
 * time, from times made for it and from a trace whose tool times decide which way it goes.
 */
class AgentCriticalPathTests {

  private static final long MS = 1_000_000L;

  private static AgentSession session(String id, int turns, Map<Integer, List<AgentSession>> subAgents) {
    List<AgentTurn> t = new java.util.ArrayList<>();
    for (int i = 0; i < turns; i++) {
      t.add(new AgentTurn(i + 1, List.of(AgentTurn.Input.text(false, "x")), 3, 0, ""));
    }
    return new AgentSession(id, 1, 0, List.<ChatMessage>of(), t, subAgents);
  }

  private static RequestTrace trace(long startMs, long endMs) {
    return RequestTrace.builder().times(startMs * MS, startMs * MS, endMs * MS).build();
  }

  @Test
  void thePathGoesThroughTheSubAgentThatEndedLastWhenTheParentWaitedForIt() {
    AgentSession slow = session("p/slow", 2, Map.of());
    AgentSession quick = session("p/quick", 1, Map.of());
    AgentSession parent = session("p", 2, Map.of(0, List.of(quick, slow)));
    AgentLedger.Run p = new AgentLedger.Run(parent, null, -1);
    AgentLedger.Run q = new AgentLedger.Run(quick, p, 0);
    AgentLedger.Run s = new AgentLedger.Run(slow, p, 0);
    p.children.add(q);
    p.children.add(s);
    p.gapNanos[0] = 20 * MS; // the parent's own tool: 20 ms, far shorter than its slow sub-agent
    s.gapNanos[0] = 300 * MS;
    Map<AgentLedger.Run, RequestTrace[]> paired = new IdentityHashMap<>();
    // p: turn 0 at 0-100 ms; quick 101-150; slow 102-200, its tool 300 ms, its turn 1 at 500-560; p's turn 1 at 562-600
    paired.put(p, new RequestTrace[] {trace(0, 100), trace(562, 600)});
    paired.put(q, new RequestTrace[] {trace(101, 150)});
    paired.put(s, new RequestTrace[] {trace(102, 200), trace(500, 560)});
    AgentRuns.CriticalPath path = AgentRuns.criticalPath(p, paired);
    assertThat(path.nanos()).isEqualTo(600 * MS); // the agent's wall time: the path sets it
    assertThat(path.modelNanos()).isEqualTo((100 + 98 + 60 + 38) * MS); // p's turns and slow's, not quick's
    assertThat(path.toolNanos()).isEqualTo(300 * MS); // slow's tool, not p's 20 ms
    assertThat(path.subAgentNanos()).isEqualTo((560 - 102) * MS);
    assertThat(path.otherNanos()).isEqualTo((2 + 2) * MS); // the spawn and the join
    // Rows as the lane draws them: p 0, quick 1, slow 2.
    assertThat(path.stretches()).extracting(x -> x[2]).containsExactly(0L, 0L, 2L, 2L, 2L, 0L, 0L);
    assertThat(path.stretches()).extracting(x -> AgentRuns.Stretch.values()[(int) x[3]]).containsExactly(
        AgentRuns.Stretch.MODEL, AgentRuns.Stretch.OTHER, AgentRuns.Stretch.MODEL, AgentRuns.Stretch.TOOL,
        AgentRuns.Stretch.MODEL, AgentRuns.Stretch.OTHER, AgentRuns.Stretch.MODEL);
  }

  @Test
  void thePathStaysWithTheParentWhenItsToolOutlastsItsSubAgents() {
    AgentSession quick = session("r/quick", 1, Map.of());
    AgentSession parent = session("r", 2, Map.of(0, List.of(quick)));
    AgentLedger.Run r = new AgentLedger.Run(parent, null, -1);
    AgentLedger.Run q = new AgentLedger.Run(quick, r, 0);
    r.children.add(q);
    r.gapNanos[0] = 400 * MS;
    Map<AgentLedger.Run, RequestTrace[]> paired = new IdentityHashMap<>();
    paired.put(r, new RequestTrace[] {trace(0, 50), trace(451, 500)});
    paired.put(q, new RequestTrace[] {trace(51, 90)});
    AgentRuns.CriticalPath path = AgentRuns.criticalPath(r, paired);
    assertThat(path.nanos()).isEqualTo(500 * MS);
    assertThat(path.toolNanos()).isEqualTo(400 * MS);
    assertThat(path.modelNanos()).isEqualTo((50 + 49) * MS);
    assertThat(path.subAgentNanos()).isZero();
    assertThat(path.otherNanos()).isEqualTo(1 * MS); // the runner's lateness after the tool
  }

  @Test
  void aLevelsAgentsReportTheirCriticalPathsAndTheLanesDrawThem() {
    try (StubEngine stub = StubEngine.builder().tokenTime(Duration.ofMillis(1)).start()) {
      assertThat(BenchKit.run(PathCases.class, "llmbench.base-url", stub.url())).passed("C=3");
    }
  }

  @LlmEndpoint
  static class PathCases {
    @ConcurrencySweep({3})
    @Workload(maxTokens = 8)
    @Warmup(requests = 0)
    @AgentTrace(AgentTraceReaderTests.DIR + "critical-path.jsonl")
    void sweep(SweepLevelResult r) {
      AgentWorkload workload = (AgentWorkload) ((MeasuredLevel) r).plan().workload().prompts().sessions().orElseThrow();
      AgentsFeature.Figures f = AgentsFeature.figures(workload, (MeasuredLevel) r).orElseThrow();
      assertThat(f.agents()).hasSize(3);
      AgentRuns.Agent p = f.agents().get(0);
      AgentRuns.Agent rr = f.agents().get(1);
      AgentRuns.Agent q = f.agents().get(2);
      for (AgentRuns.Agent a : List.of(p, rr, q)) {
        assertThat(a.complete()).isTrue();
        assertThat(a.path().nanos()).isEqualTo(a.wallNanos()); // the chain that sets the wall time, whole
      }
      // p waited for its sub-agent's 300 ms tool, not its own 20 ms: the path runs through the sub-agent.
      assertThat(p.path().toolNanos()).isEqualTo(300 * MS);
      assertThat(p.path().subAgentNanos()).isGreaterThan(300 * MS);
      assertThat(p.path().modelNanos()).isGreaterThan(p.modelNanos()); // its sub-agent's turns are on it
      assertThat(p.subAgentNanos()).isGreaterThan(0);
      // r's own 400 ms tool outlasts its quick sub-agent (one short turn), and then the path stays with r; on a machine
      // so busy that the sub-agent's one turn took longer, the path goes through it instead.
      AgentRuns.Lane lane = f.lanes().get(1);
      List<long[]> quick = lane.subAgents().get(0);
      if (quick.get(quick.size() - 1)[1] - (lane.turns().get(0)[1] + 400 * MS) < 0) {
        assertThat(rr.path().toolNanos()).isEqualTo(400 * MS);
        assertThat(rr.path().subAgentNanos()).isZero();
        assertThat(rr.path().modelNanos()).isEqualTo(rr.modelNanos());
      } else {
        assertThat(rr.path().toolNanos()).isZero();
        assertThat(rr.path().subAgentNanos()).isPositive();
      }
      // q has no sub-agent: its own turns and its 100 ms tool.
      assertThat(q.path().toolNanos()).isEqualTo(100 * MS);
      assertThat(q.path().modelNanos()).isEqualTo(q.modelNanos());
      var section = new AgentsFeature(workload).level(null, (MeasuredLevel) r).orElseThrow();
      assertThat(section.console().get(2)).matches(Messages.pattern("C=3 | critical path p50 {n} ms, p90 {n} ms: in "
          + "the model {n}%, in tools {n}%, other {n}%; through sub-agents {n}%"));
      JsonNode json = section.json().orElseThrow();
      assertThat(json.path("critical_path").path("tool_share").asDouble()).isGreaterThan(0);
      assertThat(json.path("critical_path").path("sub_agent_share").asDouble()).isGreaterThan(0);
      JsonNode first = json.path("sessions").get(0);
      assertThat(first.path("agent").asInt()).isEqualTo(1);
      assertThat(first.path("critical_path").path("tool_ms").asDouble()).isEqualTo(300.0);
      assertThat(first.path("critical_path").path("ms").asDouble()).isEqualTo(first.path("wall_ms").asDouble());
      assertThat(section.html().orElseThrow()).contains("C=3: critical path (the chain of turns");
      // A test reads the same figures as the JSON: AgentFigures.criticalPath.
      AgentFigures.CriticalPath read = AgentFigures.of(r).orElseThrow().criticalPath();
      assertThat(read.p50().toNanos() / 1e6).isEqualTo(json.path("critical_path").path("ms").path("p50").asDouble(), within(0.05));
      assertThat(read.toolShare()).isEqualTo(json.path("critical_path").path("tool_share").asDouble(), within(0.0005));
      assertThat(read.subAgentShare()).isEqualTo(json.path("critical_path").path("sub_agent_share").asDouble(), within(0.0005));
      assertThat(read.modelShare() + read.toolShare() + read.otherShare()).isCloseTo(1.0, within(1e-9));
      String svg = AgentLanes.svg("agents", f.lanes());
      assertThat(svg.split("class=\"critical-path\"", -1)).hasSize(1 + f.agents().size());
    }
  }
}
