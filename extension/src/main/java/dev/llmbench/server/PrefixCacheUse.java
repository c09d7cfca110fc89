package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How much of a level's prompts the server took from its prefix cache, by its own count: vLLM's
 * {@code vllm:prefix_cache_hits_total} over {@code vllm:prefix_cache_queries_total}, SGLang's
 * {@code sglang:cached_tokens_total} over {@code sglang:prompt_tokens_total}, llama.cpp's
 * {@code llamacpp:prompt_tokens_cached_total} (its {@code prompt_tokens_total} leaves them out), or the
 * sum of llama.cpp's per-response {@code timings.cache_n} when it has no such counter, or else the sum of
 * each response's {@code usage.prompt_tokens_details.cached_tokens} over its {@code usage.prompt_tokens}.
 *
 * @param cachedTokens prompt tokens served from the cache
 * @param promptTokens prompt tokens looked up, cached or not
 * @param source       where the figures come from, e.g. {@code llamacpp:prompt_tokens_cached_total}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record PrefixCacheUse(long cachedTokens, long promptTokens, String source) {

  /** {@return cached over looked-up prompt tokens, 0..1; 0 when none were looked up} */
  public double hitRate() {
    return promptTokens == 0 ? 0 : (double) cachedTokens / promptTokens;
  }
}
