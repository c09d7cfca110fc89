package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.workload.LengthDistribution;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Synthetic agents: pure functions of the seed and the index, drawn from their defaults as documented. */
class SyntheticAgentPoolTests {

  @SyntheticAgents
  private static final class Defaults {}

  private static SyntheticAgentPool defaults(long seed) {
    SyntheticAgents a = Defaults.class.getAnnotation(SyntheticAgents.class);
    return new SyntheticAgentPool(LengthDistribution.parse(a.turns()), a.systemTokens(), LengthDistribution.parse(a.turnTokens()),
        LengthDistribution.parse(a.outputTokens()), LengthDistribution.parse(a.toolTimeMillis()), a.fanOut(),
        LengthDistribution.parse(a.fanOutWidth()), LengthDistribution.parse(a.subAgentTurns()), seed);
  }

  @Test
  void anAgentIsAPureFunctionOfTheSeedAndItsIndex() {
    AgentSession one = defaults(7).agent(3);
    AgentSession again = defaults(7).agent(3);
    assertThat(again.turns()).extracting(AgentTurn::toolMillis).isEqualTo(one.turns().stream().map(AgentTurn::toolMillis).toList());
    assertThat(again.requests()).isEqualTo(one.requests());
    assertThat(defaults(8).agent(3).turns()).extracting(t -> t.inputs().get(0).tokens())
        .isNotEqualTo(one.turns().stream().map(t -> t.inputs().get(0).tokens()).toList());
  }

  @Test
  void theDefaultsGiveAgentsOfTheirPublishedShape() {
    SyntheticAgentPool pool = defaults(1);
    int n = 2000;
    double turns = IntStream.range(0, n).map(i -> pool.agent(i).turns().size()).average().orElseThrow();
    int[] sorted = IntStream.range(0, n).map(i -> pool.agent(i).turns().size()).sorted().toArray();
    // Mean 22 (Exgentic), median 15 (TraceLab), within what 2,000 draws of a long tail give.
    assertThat(turns).isBetween(18.0, 26.0);
    assertThat(sorted[n / 2]).isBetween(13, 17);
    // About 40% of the requests inside sub-agents, as in AgentX's corpus (42k of 99k).
    long all = IntStream.range(0, n).mapToLong(i -> pool.agent(i).requests()).sum();
    long own = IntStream.range(0, n).mapToLong(i -> pool.agent(i).turns().size()).sum();
    assertThat((double) (all - own) / all).isBetween(0.3, 0.5);
    // Every turn but the first brings a tool's result; the last calls no tool.
    AgentSession a = pool.agent(0);
    assertThat(a.turns().get(0).inputs().get(0).tool()).isFalse();
    assertThat(a.turns().subList(1, a.turns().size())).allSatisfy(t -> assertThat(t.inputs().get(0).tool()).isTrue());
    assertThat(a.turns().get(a.turns().size() - 1).toolMillis()).isZero();
  }
}
