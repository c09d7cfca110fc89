package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.agents.AgentCapacities;
import dev.llmbench.agents.AgentCapacitiesAssert;
import dev.llmbench.agents.AgentCapacity;
import dev.llmbench.agents.AgentFigures;
import dev.llmbench.agents.AgentTier;
import dev.llmbench.agents.AgentTrace;
import dev.llmbench.client.RequestResult;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Coding agents, replayed from a trace of their sessions ({@code agents/coding-agents.jsonl}, LLMBench's own agent
 * trace: one turn a line). Four agents fix a test, add an endpoint, review a pull request and rename a class; each
 * turn resends the agent's whole history with the server's <em>live</em> replies, then the agent waits for its tool
 * (the trace's {@code tool_ms}: tests take seconds, a grep a few hundred ms) before its next turn; one agent fans
 * out two explorer sub-agents, which share its system prompt, run in parallel, and must both finish before its next
 * turn. Tool times run ten times faster here ({@code toolTimeScale = 0.1}) so that the sample takes seconds; with
 * {@code 1} they are as recorded.
 *
 * <p>What a reader learns from the first test: an agent's wall time splits into time in the model, time in its
 * tools, and time waiting for its sub-agents ({@link AgentFigures}), and the prefix cache serves most of every
 * later turn's prompt, since the history is resent. The level's report adds the same figures by turn and by prompt
 * length, a picture of the agents over time ({@code agents-C=2.svg}), and findings when later turns slow down, the
 * cache stops serving past some length, or fan-out stalls the parents.
 *
 * <p>The second answers "how many agents does this deployment hold", per service tier, in one search: an interactive
 * tier (TTFT and TPOT ceilings) and a background one (TTFT only). Each probe is a level of C agents in flight (two
 * agents per slot, the trace's four wrapping round) judged against both tiers; each tier keeps its own bracket, so
 * the search goes on past the interactive tier's limit until the background tier's is found too, and says what broke
 * each. The embedded "gqa-dense" engine (10 ms a decode step) slows every step for each further request and for each
 * prompt token admitted beside it, so the agents' long tool results slow the others' tokens as they join. Its replies
 * here are 8 tokens, so the ceilings are scaled down with them (200 ms and 20 ms, 1 s); for a real deployment they
 * would be,
 * e.g., TTFT p90 at most 1 s and TPOT at most 50 ms for interactive agents, TTFT p90 at most 10 s for background
 * ones. Assertions compare the tiers with each other, never with fixed times: the answer depends on the machine. Point it at your server with {@code -Dllmbench.base-url=...} and at your own trace by changing the path
 * (AIPerf's multi-turn {@code mooncake_trace} rows and the Weka/AgentX traces read too: {@code format}).
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
@Workload(maxTokens = 8)
@AgentTrace(value = "src/test/resources/agents/coding-agents.jsonl", toolTimeScale = 0.1)
class AgentTraceBenchmarkTest {

  /** The trace's agents, their sub-agents and their turns (sub-agents' included): four agents, once each a level. */
  private static final int AGENTS = 4;
  private static final int SUB_AGENTS = 2;
  private static final int TURNS = 21;

  @ConcurrencySweep({2, 4})
  void agentsSplitTheirTimeBetweenModelToolsAndSubAgents(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    AgentFigures agents = AgentFigures.of(level).orElseThrow();
    System.out.printf("%s | %d agents, wall p50 %d ms; in the model %.0f%%, in tools %.0f%%, waiting for sub-agents %.0f%%%n",
        level.label(), agents.started(), agents.wallP50().toMillis(), 100 * agents.modelShare(), 100 * agents.toolShare(),
        100 * agents.subAgentWaitShare());
    // Every agent ran whole, sub-agents included: each of the trace's sessions once (a level counts an agent's
    // sub-agents' turns with it as it starts, so it starts no agent more).
    assertThat(agents.started()).isEqualTo(AGENTS);
    assertThat(agents.completed()).isEqualTo(agents.started());
    assertThat(agents.subAgents()).isEqualTo(SUB_AGENTS);
    assertThat(level.requestCount()).isEqualTo(TURNS);
    // The wall time is the model's, the tools' and the wait for sub-agents, each a share of it.
    assertThat(agents.modelShare()).isPositive();
    assertThat(agents.toolShare()).isPositive();
    assertThat(agents.modelShare() + agents.toolShare() + agents.subAgentWaitShare()).isLessThanOrEqualTo(1.0);
    // The explorers take several turns in the model, their parent's own tool gap 10 ms: it waits for them.
    assertThat(agents.subAgentWaitShare()).isPositive();
    // From its second turn on, a turn resends its history: the server's prefix cache serves much of the prompt.
    Map<Integer, List<RequestResult>> byTurn = new TreeMap<>(level.requests().stream()
        .collect(Collectors.groupingBy(r -> r.turn().orElseThrow())));
    byTurn.forEach((turn, requests) -> {
      long prompt = requests.stream().mapToLong(RequestResult::promptTokens).sum();
      long cached = requests.stream().mapToLong(r -> r.cachedPromptTokens().orElse(0)).sum();
      System.out.printf("%s | turn %d: %d requests, %d prompt tokens, %d from the cache%n", level.label(), turn,
          requests.size(), prompt, cached);
      if (turn >= 2) assertThat(cached).as("%s: cached prompt tokens at turn %d", level.label(), turn).isGreaterThan(prompt / 3);
    });
  }

  @AgentCapacity(agents = {2, 8}, tiers = {
      @AgentTier(name = "interactive", ttftMillis = 200, tpotMillis = 20),
      @AgentTier(name = "background", ttftMillis = 1000)})
  void agentsEachTierHolds(AgentCapacities found) {
    found.tiers().forEach(t -> System.out.println("capacity " + t.statement()));
    // The search ran until it knew both answers, and the looser tier holds at least as many agents as the strict one.
    AgentCapacitiesAssert.assertThat(found).isSettled().holds("background", found.tier("interactive").agents());
    // A tier that failed says what broke it (TTFT, TPOT or errors) at how many agents.
    found.tiers().stream().filter(t -> t.failedAt().isPresent()).forEach(t -> assertThat(t.brokenBy()).isNotBlank());
    // Each answer says how sure it is: the share of resamples of the probes' requests that agree with it.
    found.tiers().forEach(t -> assertThat(t.confidence()).isBetween(0.0, 1.0));
  }
}
