package dev.llmbench.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.testkit.Traces;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each engine's own count of prompt tokens served from its prefix cache. */
class PrefixCachesTests {

  static ServerMetrics server(String family, Map<String, Double> deltas) {
    return new ServerMetrics(family, deltas, Map.of(), 2);
  }

  @Test
  void vllmCountsHitsAmongQueries() {
    assertThat(PrefixCaches.of(List.of(), server("vllm", Map.of("vllm:prefix_cache_hits_total{model_name=\"m\"}", 32.0,
        "vllm:prefix_cache_queries_total{model_name=\"m\"}", 128.0)))).contains(new PrefixCacheUse(32, 128,
        "vllm:prefix_cache_hits_total / vllm:prefix_cache_queries_total"));
  }

  @Test
  void llamaCppLeavesCachedTokensOutOfItsPromptCounter() {
    assertThat(PrefixCaches.of(List.of(), server("llamacpp", Map.of("llamacpp:prompt_tokens_cached_total", 90.0,
        "llamacpp:prompt_tokens_total", 30.0)))).contains(new PrefixCacheUse(90, 120, "llamacpp:prompt_tokens_cached_total"));
  }

  @Test
  void sglangCountsCachedAmongPromptTokens() {
    assertThat(PrefixCaches.of(List.of(), server("sglang", Map.of("sglang:cached_tokens_total", 10.0,
        "sglang:prompt_tokens_total", 40.0)))).contains(new PrefixCacheUse(10, 40,
        "sglang:cached_tokens_total / sglang:prompt_tokens_total"));
  }

  @Test
  void withoutCountersLlamaCppTimingsAreSummed() {
    List<RequestMetrics> requests = List.of(
        RequestMetrics.of(Traces.at(0).content(5).timings(Map.of("cache_n", 0.0, "prompt_n", 40.0)).build()),
        RequestMetrics.of(Traces.at(0).content(5).timings(Map.of("cache_n", 39.0, "prompt_n", 1.0)).build()));
    assertThat(PrefixCaches.of(requests, null)).contains(new PrefixCacheUse(39, 80, "timings.cache_n"));
  }

  @Test
  void withoutCountersOrTimingsTheUsageDetailsAreSummed() {
    List<RequestMetrics> requests = List.of(
        RequestMetrics.of(Traces.at(0).content(5).usage(40, 1).cachedTokens(0).build()),
        RequestMetrics.of(Traces.at(0).content(5).usage(40, 1).cachedTokens(32).build()),
        RequestMetrics.of(Traces.at(0).content(5).usage(40, 1).build()));
    assertThat(PrefixCaches.of(requests, server("unknown", Map.of("x_total", 1.0))))
        .contains(new PrefixCacheUse(32, 80, "usage.prompt_tokens_details.cached_tokens"));
  }

  @Test
  void noCountNoReading() {
    assertThat(PrefixCaches.of(List.of(RequestMetrics.of(Traces.at(0).content(5).build())),
        server("unknown", Map.of("x_total", 1.0)))).isEmpty();
  }
}
