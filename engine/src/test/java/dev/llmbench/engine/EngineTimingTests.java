package dev.llmbench.engine;

import static dev.llmbench.engine.Wire.CHAT;
import static dev.llmbench.engine.Wire.chatBody;
import static dev.llmbench.engine.Wire.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Cold batch stalls and the slowdown factor. Timings have room for a loaded 2-core machine. */
class EngineTimingTests {

  /** 5 ms steps whatever the batch, no prefill: a step count times 5 ms is the whole story. */
  static final PerformanceProfile FLAT_5MS = new PerformanceProfile("flat-5ms", "flat-5ms", Duration.ofMillis(5),
      Duration.ZERO, Duration.ZERO, 1024, 0, 1, "5 ms per step");
  static final Duration STALL = Duration.ofMillis(400);

  EmbeddedLlmServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  EmbeddedLlmServer start(EmbeddedOptions.Builder options) {
    if (server != null) server.close();
    server = EmbeddedLlmServer.start(options.build());
    return server;
  }

  int port() {
    return server.baseUrl().getPort();
  }

  /** vLLM's default capture sizes, built as in vllm/config/vllm.py for max_cudagraph_capture_size 512. */
  @Test
  void builtInProfilesAreListedInTheirDeclaredOrderAndCannotBeChanged() {
    assertThat(PerformanceProfile.builtIn().keySet())
        .containsExactly("mla-pcie", "gqa-dense", "reasoning", "fixed-20ms", "speculative", "single-slot", "instant", "gqa-fp8",
            "gqa-int4");
    assertThat(PerformanceProfile.named("instant")).contains(PerformanceProfile.INSTANT);
    assertThatThrownBy(() -> PerformanceProfile.builtIn().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void bucketsAreVllmsDefaultCaptureSizes() {
    TreeSet<Integer> sizes = new TreeSet<>(List.of(1, 2, 4));
    for (int i = 8; i < 256; i += 8) sizes.add(i);
    for (int i = 256; i <= 512; i += 16) sizes.add(i);
    for (int batch = 1; batch <= 512; batch++) {
      assertThat(BatchScheduler.captureBucket(batch)).as("batch %d", batch).isEqualTo(sizes.ceiling(batch));
    }
    assertThat(BatchScheduler.captureBucket(513)).isEqualTo(BatchScheduler.captureBucket(4000));
  }

  /** Milliseconds of one non-streamed request of {@code tokens} tokens on its own connection. */
  long timedRequest(int tokens) {
    long start = System.nanoTime();
    try (Wire wire = new Wire(port())) {
      assertThat(wire.exchange(post(CHAT, chatBody("time me", tokens, false))).status()).isEqualTo(200);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void onlyTheFirstStepAtANewBatchSizeStalls() {
    start(EmbeddedOptions.builder(FLAT_5MS).coldBatchStall(STALL));
    long cold = timedRequest(10);
    long warm = timedRequest(10);
    assertThat(server.stalledBuckets()).containsExactly(1);
    assertThat(server.coldBatchStalls()).isEqualTo(1);
    assertThat(cold).as("10 steps of 5 ms and the stall").isGreaterThanOrEqualTo(STALL.toMillis() + 40);
    assertThat(cold - warm).as("cold %d ms, warm %d ms", cold, warm).isGreaterThan(STALL.toMillis() - 150);
  }

  @Test
  void noStallByDefault() {
    start(EmbeddedOptions.builder(FLAT_5MS));
    timedRequest(3);
    assertThat(server.coldBatchStalls()).isZero();
    assertThat(server.stalledBuckets()).isEmpty();
  }

  /** Runs {@code c} streams of {@code tokens} tokens together, until all have been in flight at once. */
  void level(int c, int tokens) {
    List<Wire> wires = new ArrayList<>();
    try {
      for (int i = 0; i < c; i++) wires.add(new Wire(port(), Duration.ofSeconds(30)).send(post(CHAT, chatBody("w", tokens, true))));
      await().atMost(Duration.ofSeconds(20)).until(() -> server.running() == c);
      for (Wire w : wires) assertThat(w.read().events()).last().isEqualTo("[DONE]");
    } finally {
      wires.forEach(Wire::close);
    }
  }

  @Test
  void aWarmUpThatReachesTheLevelsConcurrencyWarmsIt() {
    start(EmbeddedOptions.builder(FLAT_5MS).coldBatchStall(STALL));
    level(8, 200); // 1 s of decoding: all 8 are in flight together for most of it
    List<Integer> warmUp = server.stalledBuckets();
    assertThat(warmUp).contains(8);
    level(8, 200);
    List<Integer> measured = server.stalledBuckets().subList(warmUp.size(), server.stalledBuckets().size());
    assertThat(measured).as("buckets first run in the measured level").doesNotContain(8);
  }

  @Test
  void aWarmUpWithOneRequestInFlightLeavesTheStallInTheLevel() {
    start(EmbeddedOptions.builder(FLAT_5MS).coldBatchStall(STALL));
    for (int i = 0; i < 8; i++) timedRequest(1); // 8 warm-up requests, never two at once
    assertThat(server.stalledBuckets()).containsExactly(1);
    level(8, 200);
    assertThat(server.stalledBuckets()).contains(8);
  }

  /**
   * The median gap between streamed tokens is the step time, whatever the load adds to a request as a whole.
   * 20 ms steps against 30 ms. A busy machine wakes the engine late and so lengthens its steps: the client's
   * gaps are held against the engine's own timing of the same request, and the profile only bounds them below.
   */
  @Test
  void slowdownStretchesEveryStep() {
    PerformanceProfile flat20 = new PerformanceProfile("flat-20ms", "flat-20ms", Duration.ofMillis(20), Duration.ZERO,
        Duration.ZERO, 16, 0, 1, "20 ms per step");
    start(EmbeddedOptions.builder(flat20));
    double base = medianTokenGapMillis(40);
    double baseEngine = engineMedianGapMillis();
    start(EmbeddedOptions.builder(flat20).slowdown(1.5));
    double slowed = medianTokenGapMillis(40);
    assertThat(baseEngine).as("the engine's own median step, against the profile's 20 ms").isGreaterThan(19.5);
    assertThat(base).as("the client's median gap against the engine's own, %.2f ms", baseEngine)
        .isCloseTo(baseEngine, org.assertj.core.data.Percentage.withPercentage(10));
    assertThat(slowed / base).as("slowed %.1f ms, base %.1f ms", slowed, base).isBetween(1.35, 1.65);
  }

  /** The median gap between token chunks of the last request, as the engine timed it when it wrote them. */
  double engineMedianGapMillis() {
    List<RequestTimings.Finished> done = server.finishedRequests();
    return median(done.get(done.size() - 1).chunkGapsNanos()) / 1e6;
  }

  double medianTokenGapMillis(int tokens) {
    try (Wire wire = new Wire(port())) {
      Wire.Response r = wire.exchange(post(CHAT, chatBody("time me", tokens, true)));
      List<Long> times = r.chunkNanos().subList(1, tokens + 1); // the token chunks, after the role chunk
      long[] gaps = IntStream.range(1, times.size()).mapToLong(i -> times.get(i) - times.get(i - 1)).toArray();
      return median(gaps) / 1e6;
    }
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
