package dev.llmbench.internal.server;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.TokenSource;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.server.TokenCrossCheck;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/** Builds a level's {@link TokenCrossCheck} for the server families whose counters are known. */
@API(status = INTERNAL)
public final class TokenCrossChecks {

  /** Counter names per family: output tokens, prompt tokens. */
  static final Map<String, List<String>> COUNTERS = Map.of(
      "vllm", List.of("vllm:generation_tokens_total", "vllm:prompt_tokens_total"),
      "llamacpp", List.of("llamacpp:tokens_predicted_total", "llamacpp:prompt_tokens_total"),
      "sglang", List.of("sglang:generation_tokens_total", "sglang:prompt_tokens_total"));

  private TokenCrossChecks() {}

  /**
   * The comparison, or empty when it cannot be made: an unknown server family, a failed request (its
   * partial generation is in the counter but not in any usage), or token counts that are only estimates.
   */
  public static Optional<TokenCrossCheck> of(List<RequestMetrics> requests, ServerMetrics server) {
    List<String> names = COUNTERS.get(server.family());
    if (names == null || requests.isEmpty()) return Optional.empty();
    if (requests.stream().anyMatch(r -> !r.succeeded() || r.tokenSource() != TokenSource.SERVER_USAGE)) {
      return Optional.empty();
    }
    Optional<Double> output = server.counter(names.get(0));
    Optional<Double> prompt = server.counter(names.get(1));
    String promptCounter = names.get(1);
    if (server.family().equals("llamacpp")) {
      // llama.cpp counts prompt-cache hits in a counter of their own.
      prompt = prompt.map(p -> p + server.counter("llamacpp:prompt_tokens_cached_total").orElse(0.0));
      promptCounter += " + llamacpp:prompt_tokens_cached_total";
    }
    if (output.isEmpty() || prompt.isEmpty()) return Optional.empty();
    return Optional.of(new TokenCrossCheck(names.get(0), requests.stream().mapToLong(RequestMetrics::outputTokens).sum(),
        output.get(), promptCounter, requests.stream().mapToLong(RequestMetrics::promptTokens).sum(), prompt.get()));
  }
}
