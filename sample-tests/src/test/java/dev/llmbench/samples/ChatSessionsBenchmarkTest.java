package dev.llmbench.samples;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.client.RequestResult;
import dev.llmbench.sessions.Sessions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A chat assistant: users hold 4-turn conversations, think 50 to 300 ms between a reply and their next message
 * (scaled down from seconds so that the sample runs quickly), and each turn resends the whole conversation with the
 * assistant's real replies. What decides the speed of turn 4 is whether the server's prefix cache still holds the
 * history, so the assertion is on the cache per turn, read from the server's own {@code cached_tokens}; the TTFT of
 * each turn is printed, the headline of a multi-turn benchmark. The level's reports add the same figures by turn,
 * and a finding when later turns slow down beyond noise or the cache stops helping. {@code X-Session-ID} names
 * each session, for a router that pins sessions to replicas.
 */
@LlmEndpoint(embeddedProfile = "gqa-dense")
class ChatSessionsBenchmarkTest {

  @ConcurrencySweep({1, 4})
  @Workload(maxTokens = 32)
  @Sessions(turns = "4", inputTokens = "uniform(40,120)", thinkTimeMillis = "uniform(50,300)",
      affinityHeader = "X-Session-ID", seed = 7)
  void conversations(SweepLevelResult level) {
    assertThat(level).hasNoErrors();
    Map<Integer, List<RequestResult>> byTurn = new TreeMap<>(level.requests().stream()
        .collect(Collectors.groupingBy(r -> r.turn().orElseThrow())));
    assertThat(byTurn.keySet()).containsExactly(1, 2, 3, 4);
    byTurn.forEach((turn, requests) -> System.out.printf("%s | turn %d: TTFT median %.1f ms, prompt tokens %d, cached %d%n",
        level.label(), turn, median(requests).toNanos() / 1e6, requests.stream().mapToInt(RequestResult::promptTokens).sum(),
        requests.stream().mapToInt(r -> r.cachedPromptTokens().orElse(0)).sum()));
    // From turn 2 on, the history is most of the prompt, and the cache serves it.
    for (int turn = 2; turn <= 4; turn++) {
      long prompt = byTurn.get(turn).stream().mapToLong(RequestResult::promptTokens).sum();
      long cached = byTurn.get(turn).stream().mapToLong(r -> r.cachedPromptTokens().orElseThrow()).sum();
      assertThat(cached).as("%s: prompt tokens from the cache at turn %d", level.label(), turn).isGreaterThan(prompt / 3);
    }
  }

  private static Duration median(List<RequestResult> requests) {
    List<Duration> ttft = requests.stream().map(r -> r.ttft().orElseThrow()).sorted().toList();
    return ttft.get(ttft.size() / 2);
  }
}
