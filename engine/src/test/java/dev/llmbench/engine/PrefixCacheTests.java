package dev.llmbench.engine;

import static dev.llmbench.engine.Wire.COMPLETIONS;
import static dev.llmbench.engine.Wire.get;
import static dev.llmbench.engine.Wire.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrefixCacheTests {

  static final ObjectMapper JSON = new ObjectMapper();

  EmbeddedLlmServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  /** {@code n} one-token words: {@code word0 word1 ...}. */
  static String words(String word, int n) {
    return IntStream.range(0, n).mapToObj(i -> word + i).collect(Collectors.joining(" "));
  }

  static List<String> tokens(String text) {
    return TextModel.tokenize(text);
  }

  static int admit(PrefixCache cache, String prompt) {
    List<String> t = tokens(prompt);
    return cache.admit(PrefixCache.blockHashes(t), t.size());
  }

  @Test
  void distinctFirstBlocksNeverHit() {
    PrefixCache cache = new PrefixCache(1024);
    String rest = " " + words("shared", 80);
    assertThat(admit(cache, "alpha" + rest)).isZero();
    assertThat(admit(cache, "beta" + rest)).as("one token differs in the first block: every block differs").isZero();
  }

  @Test
  void aShared64TokenPrefixHitsItsFourBlocks() {
    PrefixCache cache = new PrefixCache(1024);
    String prefix = words("p", 64);
    assertThat(tokens(prefix)).hasSize(64);
    assertThat(admit(cache, prefix + " " + words("a", 20))).isZero();
    assertThat(admit(cache, prefix + " " + words("b", 20))).isEqualTo(64);
    assertThat(admit(cache, prefix + " " + words("a", 20))).as("the whole first prompt: 5 full blocks").isEqualTo(80);
  }

  @Test
  void theLastTokenIsAlwaysRecomputedAsInVllm() {
    PrefixCache cache = new PrefixCache(1024);
    String exactlyTwoBlocks = words("w", 32);
    admit(cache, exactlyTwoBlocks);
    assertThat(admit(cache, exactlyTwoBlocks)).as("32 tokens seen before: only 31 may hit, so one block").isEqualTo(16);
    assertThat(admit(cache, exactlyTwoBlocks + " more")).isEqualTo(32);
    assertThat(admit(cache, words("x", 15))).isZero();
    assertThat(admit(cache, words("x", 15))).as("no full block, nothing cached").isZero();
  }

  @Test
  void memoryIsBoundedAndTheLeastRecentlyUsedGoesFirst() {
    PrefixCache cache = new PrefixCache(8);
    List<String> prompts = new ArrayList<>();
    for (int i = 0; i < 10; i++) prompts.add("q" + i + " " + words("w", 40)); // 2 full blocks each
    prompts.forEach(p -> admit(cache, p));
    assertThat(cache.size()).isEqualTo(8);
    assertThat(admit(cache, prompts.get(9))).as("recent").isEqualTo(32);
    assertThat(admit(cache, prompts.get(0))).as("evicted").isZero();
  }

  // ----- through the server

  EmbeddedLlmServer start(boolean prefixCache, PerformanceProfile profile) {
    server = EmbeddedLlmServer.start(EmbeddedOptions.builder(profile).prefixCache(prefixCache).build());
    return server;
  }

  JsonNode complete(String prompt, boolean stream) throws IOException {
    try (Wire wire = new Wire(server.baseUrl().getPort())) {
      String body = JSON.createObjectNode().put("prompt", prompt).put("max_tokens", 2).put("stream", stream)
          .set("stream_options", JSON.createObjectNode().put("include_usage", true)).toString();
      Wire.Response r = wire.exchange(post(COMPLETIONS, body));
      assertThat(r.status()).isEqualTo(200);
      if (!stream) return JSON.readTree(r.body()).path("usage");
      List<String> events = r.events();
      return JSON.readTree(events.get(events.size() - 2)).path("usage");
    }
  }

  String metrics() {
    try (Wire wire = new Wire(server.baseUrl().getPort())) {
      return wire.exchange(get("/metrics")).text();
    }
  }

  @Test
  void usageAndCountersReportCachedTokens() throws IOException {
    start(true, PerformanceProfile.INSTANT);
    String prefix = words("p", 64);
    JsonNode first = complete(prefix + " " + words("a", 10), false);
    assertThat(first.at("/prompt_tokens_details/cached_tokens").isInt()).isTrue();
    assertThat(first.at("/prompt_tokens_details/cached_tokens").asInt()).isZero();
    JsonNode second = complete(prefix + " " + words("b", 10), true);
    assertThat(second.at("/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(64);
    JsonNode third = complete("other " + prefix, false);
    assertThat(third.at("/prompt_tokens_details/cached_tokens").asInt()).isZero();
    long queries = first.path("prompt_tokens").asLong() + second.path("prompt_tokens").asLong()
        + third.path("prompt_tokens").asLong();
    assertThat(server.prefixCacheQueries()).isEqualTo(queries);
    assertThat(server.prefixCacheHits()).isEqualTo(64);
    assertThat(metrics()).contains("vllm:prefix_cache_queries_total{model_name=\"instant\"} " + queries + "\n")
        .contains("vllm:prefix_cache_hits_total{model_name=\"instant\"} 64\n");
    try (Wire wire = new Wire(server.baseUrl().getPort())) {
      assertThat(wire.exchange(post("/reset_prefix_cache", "")).status()).isEqualTo(200);
    }
    assertThat(complete(prefix + " " + words("b", 10), false).at("/prompt_tokens_details/cached_tokens").asInt())
        .as("after a reset").isZero();
  }

  @Test
  void offMeansNoHitsAndNoDetails() throws IOException {
    start(false, PerformanceProfile.INSTANT);
    String prompt = words("p", 64);
    complete(prompt, false);
    JsonNode usage = complete(prompt, false);
    assertThat(usage.has("prompt_tokens_details")).isFalse();
    assertThat(server.prefixCacheHits()).isZero();
    assertThat(server.prefixCacheQueries()).isZero();
  }

  /** 4 ms of prefill per prompt token: 80 uncached tokens take 320 ms, the same prompt again 16 uncached tokens. */
  @Test
  void cachedTokensCostNoPrefill() throws IOException {
    PerformanceProfile prefillHeavy = new PerformanceProfile("prefill-heavy", "prefill-heavy", Duration.ofMillis(1),
        Duration.ZERO, Duration.ofMillis(4), 64, 0, 1, "4 ms per prompt token");
    start(true, prefillHeavy);
    String prompt = words("p", 80);
    long cold = timed(prompt);
    long warm = Math.min(timed(prompt), Math.min(timed(prompt), timed(prompt))); // the best of three: load only adds
    assertThat(Duration.ofNanos(cold)).isGreaterThan(Duration.ofMillis(300));
    assertThat(Duration.ofNanos(warm)).as("64 of 80 tokens cached").isLessThan(Duration.ofNanos(cold).minusMillis(150));
    server.close();
    start(false, prefillHeavy);
    timed(prompt);
    assertThat(Duration.ofNanos(timed(prompt))).as("without the cache").isGreaterThan(Duration.ofMillis(300));
  }

  private long timed(String prompt) throws IOException {
    long start = System.nanoTime();
    complete(prompt, false);
    return System.nanoTime() - start;
  }
}
