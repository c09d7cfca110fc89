package dev.llmbench.internal.server;

import dev.llmbench.TokenSource;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The client's token totals for a level next to the server's own counter deltas, for the server families
 * whose counters are known.
 *
 * @param outputCounter the server counter of generated tokens
 * @param clientOutput  output tokens the client counted (from each response's {@code usage})
 * @param serverOutput  how much that counter rose during the level
 * @param promptCounter the server counter(s) of prompt tokens
 * @param clientPrompt  prompt tokens the client counted
 * @param serverPrompt  how much those counters rose
 */
public record TokenCrossCheck(String outputCounter, long clientOutput, double serverOutput, String promptCounter,
    long clientPrompt, double serverPrompt) {

  /** Counter names per family: output tokens, prompt tokens. */
  static final Map<String, List<String>> COUNTERS = Map.of(
      "vllm", List.of("vllm:generation_tokens_total", "vllm:prompt_tokens_total"),
      "llamacpp", List.of("llamacpp:tokens_predicted_total", "llamacpp:prompt_tokens_total"),
      "sglang", List.of("sglang:generation_tokens_total", "sglang:prompt_tokens_total"));

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

  public boolean outputMatches() {
    return serverOutput == clientOutput;
  }

  public boolean promptMatches() {
    return serverPrompt == clientPrompt;
  }

  public boolean matches() {
    return outputMatches() && promptMatches();
  }

  /** {@code output tokens 4096 = llamacpp:tokens_predicted_total +4096; prompt tokens ...}. */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "output tokens %d %s %s +%.0f; prompt tokens %d %s %s +%.0f",
        clientOutput, outputMatches() ? "=" : "≠", outputCounter, serverOutput,
        clientPrompt, promptMatches() ? "=" : "≠", promptCounter, serverPrompt);
  }
}
