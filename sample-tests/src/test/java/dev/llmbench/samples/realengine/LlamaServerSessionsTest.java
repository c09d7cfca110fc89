package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.client.RequestResult;
import dev.llmbench.sessions.Sessions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;

/**
 * Four-turn chat sessions against llama-server (4 slots, started by {@code scripts/real-engine.sh}): each turn
 * resends its history with the server's own replies, llama-server keeps a session's tokens in the slot that served
 * it, and the prompt tokens it serves from that cache ({@code timings.cache_n}, also
 * {@code usage.prompt_tokens_details.cached_tokens}) grow with the turn index. Two sessions in flight, so every
 * session finds its slot free. Short user turns: the tiny model's slots hold 512 tokens each.
 */
@Tag("real-engine")
@LlmEndpoint(baseUrl = "http://127.0.0.1:8092", readyTimeout = "2m")
class LlamaServerSessionsTest {

  @ConcurrencySweep({2})
  @Workload(maxTokens = 16, ignoreEos = true)
  @Sessions(turns = "4", inputTokens = "6", sessions = 6)
  void cachedPromptTokensGrowWithTheTurn(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    Map<Integer, Double> cached = new TreeMap<>(level.requests().stream().collect(Collectors.groupingBy(
        r -> r.turn().orElseThrow(), Collectors.averagingInt(r -> r.cachedPromptTokens().orElseThrow()))));
    Map<Integer, Double> prompt = new TreeMap<>(level.requests().stream().collect(Collectors.groupingBy(
        r -> r.turn().orElseThrow(), Collectors.averagingInt(RequestResult::promptTokens))));
    cached.forEach((turn, c) -> System.out.printf("%s | turn %d: prompt tokens %.1f, cached %.1f (%.0f%%)%n", level.label(),
        turn, prompt.get(turn), c, 100 * c / prompt.get(turn)));
    assertThat(cached.keySet()).containsExactly(1, 2, 3, 4);
    for (int turn = 2; turn <= 4; turn++) {
      assertThat(cached.get(turn)).as("cached prompt tokens at turn %d against turn %d", turn, turn - 1)
          .isGreaterThan(cached.get(turn - 1));
      // The turn before's prompt is a prefix of this one's: the slot serves most of it again.
      assertThat(cached.get(turn)).as("turn %d's cache against the turn before's prompt", turn)
          .isGreaterThan(0.5 * prompt.get(turn - 1));
    }
  }
}
