package dev.llmbench.internal.server;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.server.ServerMetrics;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** A level's {@link PrefixCacheUse}, from whichever count the server keeps. */
@API(status = INTERNAL)
public final class PrefixCaches {

  private PrefixCaches() {}

  /**
   * From the server's counters when it has them, else from llama.cpp's per-response timings, else from
   * each response's {@code usage.prompt_tokens_details.cached_tokens} (OpenAI's field; vLLM sends it with
   * {@code --enable-prompt-tokens-details}); empty when none.
   */
  public static Optional<PrefixCacheUse> of(List<RequestMetrics> requests, ServerMetrics server) {
    if (server != null) {
      Optional<PrefixCacheUse> counted = ratio(server, "vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total")
          .or(() -> ratio(server, "vllm:gpu_prefix_cache_hits_total", "vllm:gpu_prefix_cache_queries_total"))
          .or(() -> ratio(server, "sglang:cached_tokens_total", "sglang:prompt_tokens_total"));
      if (counted.isPresent()) return counted;
      Optional<Double> cached = server.counter("llamacpp:prompt_tokens_cached_total");
      Optional<Double> evaluated = server.counter("llamacpp:prompt_tokens_total");
      if (cached.isPresent() && evaluated.isPresent()) {
        return Optional.of(new PrefixCacheUse(Math.round(cached.get()), Math.round(cached.get() + evaluated.get()),
            "llamacpp:prompt_tokens_cached_total"));
      }
    }
    List<RequestMetrics> timed = requests.stream().filter(r -> r.trace().serverTimings().containsKey("cache_n")).toList();
    if (timed.isEmpty()) return fromUsage(requests);
    long cached = timed.stream().mapToLong(r -> Math.round(r.trace().serverTimings().get("cache_n"))).sum();
    long evaluated = timed.stream().mapToLong(r -> Math.round(r.trace().serverTimings().getOrDefault("prompt_n", 0.0))).sum();
    return Optional.of(new PrefixCacheUse(cached, cached + evaluated, "timings.cache_n"));
  }

  private static Optional<PrefixCacheUse> fromUsage(List<RequestMetrics> requests) {
    List<RequestMetrics> told = requests.stream()
        .filter(r -> r.trace().cachedTokens() >= 0 && r.trace().serverUsage().map(u -> u.promptTokens() != null).orElse(false))
        .toList();
    if (told.isEmpty()) return Optional.empty();
    long cached = told.stream().mapToLong(r -> r.trace().cachedTokens()).sum();
    long prompt = told.stream().mapToLong(r -> r.trace().serverUsage().orElseThrow().promptTokens()).sum();
    return Optional.of(new PrefixCacheUse(cached, prompt, "usage.prompt_tokens_details.cached_tokens"));
  }

  private static Optional<PrefixCacheUse> ratio(ServerMetrics server, String hits, String queries) {
    Optional<Double> h = server.counter(hits);
    Optional<Double> q = server.counter(queries);
    if (h.isEmpty() || q.isEmpty()) return Optional.empty();
    return Optional.of(new PrefixCacheUse(Math.round(h.get()), Math.round(q.get()), hits + " / " + queries));
  }
}
