package dev.llmbench.samples.realengine;

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
import org.junit.jupiter.api.Tag;

/**
 * A small agent trace ({@code agents/llama-agents.jsonl}: two agents, tool gaps, one sub-agent fanned out and joined)
 * replayed on llama-server started with {@code --jinja} (2 slots on 8094, by {@code scripts/real-engine.sh}), tool calls
 * threaded back ({@code toolCalls}: a calling turn offers the trace's tool; the tiny seeded model writes text, not a
 * call, so its result goes as text, which the level must carry without an error). Each turn resends the agent's
 * history with the server's live replies, so llama-server serves the earlier turns from the slot's cache, read from
 * its own {@code usage.prompt_tokens_details.cached_tokens}. Then a two-tier capacity search over agents in flight,
 * with ceilings loose enough for a tiny model on a shared CPU: the looser tier holds at least what the stricter does.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8094", readyTimeout = "2m")
@Workload(maxTokens = 8, ignoreEos = true)
@AgentTrace(value = "src/test/resources/agents/llama-agents.jsonl", toolCalls = true)
class LlamaServerAgentTraceTest {

  @ConcurrencySweep({2})
  void agentsRunWholeWithTheirHistoriesCached(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    AgentFigures agents = AgentFigures.of(level).orElseThrow();
    System.out.printf("%s | llama-server agents: %d started, %d completed, %d sub-agents; model %.0f%%, tools %.0f%%, "
        + "sub-agents %.0f%%%n", level.label(), agents.started(), agents.completed(), agents.subAgents(),
        100 * agents.modelShare(), 100 * agents.toolShare(), 100 * agents.subAgentWaitShare());
    assertThat(agents.started()).isGreaterThanOrEqualTo(2);
    assertThat(agents.completed()).isEqualTo(agents.started());
    assertThat(agents.subAgents()).isGreaterThanOrEqualTo(1);
    assertThat(agents.toolShare()).isPositive();
    Map<Integer, List<RequestResult>> byTurn = new TreeMap<>(level.requests().stream()
        .collect(Collectors.groupingBy(r -> r.turn().orElseThrow())));
    byTurn.forEach((turn, requests) -> {
      long prompt = requests.stream().mapToLong(RequestResult::promptTokens).sum();
      long cached = requests.stream().mapToLong(r -> r.cachedPromptTokens().orElseThrow()).sum();
      System.out.printf("%s | llama-server agents, turn %d: %d requests, %d prompt tokens, %d cached%n", level.label(), turn,
          requests.size(), prompt, cached);
      // From the second turn on, the history is resent: the slot serves part of the prompt again.
      if (turn >= 2) assertThat(cached).as("%s: cached prompt tokens at turn %d", level.label(), turn).isPositive();
    });
  }

  @AgentCapacity(agents = {1, 4}, tiers = {
      @AgentTier(name = "interactive", ttftMillis = 5_000, tpotMillis = 1_000),
      @AgentTier(name = "background", ttftMillis = 60_000)})
  void agentsEachTierHolds(AgentCapacities found) {
    found.tiers().forEach(t -> System.out.println("llama-server capacity " + t.statement()));
    AgentCapacitiesAssert.assertThat(found).isSettled().holds("background", found.tier("interactive").agents());
  }
}
