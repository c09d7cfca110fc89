package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The agents' findings, each from figures made for it: exact messages and their thresholds. */
class AgentFindingsTests {

  private static double[] ms(double from, double to) {
    return IntStream.range(0, 10).mapToDouble(i -> from + (to - from) * i / 9).toArray();
  }

  private static TurnRows row(int key, double[] ttft, double prompt, double cached) {
    return new TurnRows(key, ttft.length, 0, ttft, ms(5, 6), prompt, OptionalDouble.of(cached));
  }

  private static AgentRuns.Agent agent(long wall, long model, long tool, long waited, int subAgents) {
    return new AgentRuns.Agent(wall, model, tool, waited, 3, 3 + subAgents, subAgents, true, 0, 0,
        new AgentRuns.CriticalPath(wall, model, tool, 0, List.of()));
  }

  /** An agent whose critical path of {@code wall} ns runs {@code throughSubAgents} through its sub-agents. */
  private static AgentRuns.Agent agent(long wall, long model, long tool, long waited, int subAgents, long pathModel,
      long pathTool, long throughSubAgents) {
    return new AgentRuns.Agent(wall, model, tool, waited, 3, 3 + subAgents, subAgents, true, 0, 0,
        new AgentRuns.CriticalPath(wall, pathModel, pathTool, throughSubAgents, List.of()));
  }

  private static AgentsFeature.Figures figures(List<AgentRuns.Agent> agents, List<TurnRows> byTurn, List<TurnRows> byContext) {
    return new AgentsFeature.Figures(agents, byTurn, byContext, List.of());
  }

  @Test
  void theCacheStoppingPastAPromptLengthIsFoundWhereItStops() {
    AgentsFeature.Figures f = figures(List.of(agent(100, 50, 50, 0, 0)), List.of(),
        List.of(row(0, ms(10, 20), 600, 0.2), row(1024, ms(10, 20), 1500, 0.8), row(2048, ms(10, 20), 3000, 0.9),
            row(4096, ms(10, 20), 5000, 0.3)));
    assertThat(f.findings("C=8")).containsExactly("C=8: the prefix cache stops serving the agents' history past about "
        + "4096 prompt tokens: it served 30.0% of the prompts of 4K-8K tokens, against 80.0% of those of 1K-2K (KV-cache "
        + "capacity, eviction between turns, or sessions routed to replicas without their history)");
  }

  @Test
  void agentsWaitingForTheirSubAgentsAQuarterOfTheirTimeAreFoundStalled() {
    AgentsFeature.Figures stalled = figures(List.of(agent(1_000_000_000, 400_000_000, 300_000_000, 300_000_000, 2,
        600_000_000, 350_000_000, 450_000_000)), List.of(), List.of());
    assertThat(stalled.findings("C=2")).containsExactly("C=2: fan-out stalls the parents: the agents waited for their "
        + "sub-agents 30.0% of their wall time beyond their tools' (a parent's next turn waits for its slowest sub-agent); "
        + "their critical path runs 45.0% of its length through sub-agents (critical path p50 1000.0 ms: 60.0% in the "
        + "model, 35.0% in tools)");
    AgentsFeature.Figures not = figures(List.of(agent(1000, 600, 200, 200, 2)), List.of(), List.of());
    assertThat(not.findings("C=2")).isEmpty();
  }

  @Test
  void laterTurnsWithinTheFirstsNoiseAreNotFoundSlower() {
    AgentsFeature.Figures f = figures(List.of(agent(100, 50, 50, 0, 0)),
        List.of(row(1, ms(10, 30), 100, 0), row(2, ms(20, 40), 300, 0.5)), List.of());
    assertThat(f.findings("C=1")).isEmpty();
  }
}
