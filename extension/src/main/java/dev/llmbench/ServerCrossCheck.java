package dev.llmbench;

import dev.llmbench.metrics.RequestMetrics;
import dev.llmbench.metrics.TokenSource;
import dev.llmbench.server.ServerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Compares what the client counted with what the server's own counters say, for the families we know. */
final class ServerCrossCheck {

  /** Counter names per family: output tokens, prompt tokens. */
  static final Map<String, List<String>> COUNTERS = Map.of(
      "vllm", List.of("vllm:generation_tokens_total", "vllm:prompt_tokens_total"),
      "llamacpp", List.of("llamacpp:tokens_predicted_total", "llamacpp:prompt_tokens_total"),
      "sglang", List.of("sglang:generation_tokens_total", "sglang:prompt_tokens_total"));

  private ServerCrossCheck() {}

  static Optional<Double> serverOutputTokens(ServerMetrics m) {
    List<String> names = COUNTERS.get(m.family());
    return names == null ? Optional.empty() : m.counter(names.get(0));
  }

  /** Prompt tokens the server billed: llama.cpp counts prompt-cache hits in a counter of their own. */
  static Optional<Double> serverPromptTokens(ServerMetrics m) {
    List<String> names = COUNTERS.get(m.family());
    if (names == null) return Optional.empty();
    Optional<Double> processed = m.counter(names.get(1));
    if (m.family().equals("llamacpp")) {
      return processed.map(p -> p + m.counter("llamacpp:prompt_tokens_cached_total").orElse(0.0));
    }
    return processed;
  }

  /** Every cross-check warning starts with this, so assertions can find them. */
  static final String PREFIX = "server counter mismatch: ";

  static List<String> compare(List<RequestMetrics> requests, ServerMetrics server) {
    List<String> warnings = new ArrayList<>();
    if (requests.stream().anyMatch(r -> !r.succeeded())) return warnings; // partial generations make totals incomparable
    if (requests.stream().anyMatch(r -> r.tokenSource() != TokenSource.SERVER_USAGE)) return warnings;
    long out = requests.stream().mapToLong(RequestMetrics::outputTokens).sum();
    long prompt = requests.stream().mapToLong(RequestMetrics::promptTokens).sum();
    serverOutputTokens(server).filter(v -> v != out).ifPresent(v -> warnings.add(String.format(
        PREFIX + "output tokens: the client counted %d, the server's %s rose by %.0f", out, COUNTERS.get(server.family()).get(0), v)));
    serverPromptTokens(server).filter(v -> v != prompt).ifPresent(v -> warnings.add(String.format(
        PREFIX + "prompt tokens: the client counted %d, the server's %s rose by %.0f", prompt, COUNTERS.get(server.family()).get(1)
            + (server.family().equals("llamacpp") ? " (+ prompt_tokens_cached_total)" : ""), v)));
    return warnings;
  }
}
