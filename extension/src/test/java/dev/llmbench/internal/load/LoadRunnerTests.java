package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The load runner is non-blocking: hundreds of streams in flight on the client's few threads. */
class LoadRunnerTests {

  static CompletionRequest request(int tokens) {
    return CompletionRequest.of("Count slowly.").withMaxTokens(tokens).withIgnoreEos(true);
  }

  /** Every thread that sent, received or observed: the runner's own, the client's event loops, the timeouts. */
  static final class ThreadsSeen implements LoadRunner.Observer {
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger completed = new AtomicInteger();

    @Override
    public void sending(int index, long scheduledNanos) {
      threads.add(Thread.currentThread().getName());
      sent.incrementAndGet();
    }

    @Override
    public void completed(RequestTrace trace) {
      threads.add(Thread.currentThread().getName());
      completed.incrementAndGet();
    }
  }

  @Test
  void aClosedLoopOf256StreamsHasThemAllInFlightTogetherOnTheClientsFewThreads() {
    // 20 ms a token and 6 tokens: each request lasts well over the time it takes to send 256.
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(EmbeddedOptions.of(PerformanceProfile.FIXED_20MS));
        OpenAiClient client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(60), Duration.ofSeconds(30))) {
      ThreadsSeen seen = new ThreadsSeen();
      Set<String> completedOn = ConcurrentHashMap.newKeySet();
      LoadRunner runner = new LoadRunner((i, due) -> client.sendAsync(ApiStyle.CHAT, "m", request(6), due, TextCapture.NONE)
          .whenComplete((t, e) -> completedOn.add(Thread.currentThread().getName())), client::cancelAll,
          Duration.ofSeconds(60), seen);
      LoadRunner.Outcome outcome = runner.run(new LoadShape.ClosedLoop(256), Budget.requests(512), 1);

      assertThat(outcome.traces()).hasSize(512).allSatisfy(t -> assertThat(t.succeeded()).as("%s", t).isTrue());
      assertThat(outcome.stopReason()).isEqualTo(StopReason.REQUEST_COUNT);
      assertThat(LevelStatistics.peakConcurrency(outcome.traces())).isEqualTo(256);
      assertThat(seen.threads).as("sends and completions are taken on the calling thread only")
          .containsExactly(Thread.currentThread().getName());
      assertThat(completedOn).as("streams are read on the client's event loops").allMatch(n -> n.startsWith("llmbench-io-"))
          .hasSizeLessThanOrEqualTo(2);
      assertThat(server.postsReceived("/v1/chat/completions")).isEqualTo(512);
    }
  }

  @Test
  void anOpenLoopCappedAtOneQueuesDueRequestsAndCountsTheWait() {
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(EmbeddedOptions.of(PerformanceProfile.FIXED_20MS));
        OpenAiClient client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(60), Duration.ofSeconds(30))) {
      LoadRunner runner = new LoadRunner((i, due) -> client.sendAsync(ApiStyle.CHAT, "m", request(3), due, TextCapture.NONE),
          client::cancelAll, Duration.ofSeconds(60), LoadRunner.Observer.NONE);
      // 100 req/s offered, one at a time, each over 60 ms: later requests wait for the slot.
      LoadRunner.Outcome outcome = runner.run(new LoadShape.OpenLoop(Rate.requestsPerSecond(100), 1, OptionalInt.of(1)),
          Budget.requests(6), 3);
      List<RequestMetrics> metrics = outcome.traces().stream().map(RequestMetrics::of).toList();
      assertThat(LevelStatistics.peakConcurrency(outcome.traces())).isEqualTo(1);
      assertThat(metrics.get(metrics.size() - 1).queueTime()).isGreaterThan(Duration.ofMillis(150));
      assertThat(metrics).allSatisfy(m -> assertThat(m.succeeded()).isTrue());
    }
  }

  @Test
  void aTimedLevelCancelsWhatIsStillRunningWhenItsGraceEndsAndSaysWhy() throws Exception {
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(EmbeddedOptions.builder(PerformanceProfile.INSTANT)
        .faults("stall:every1").build());
        OpenAiClient client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(60), Duration.ofSeconds(60))) {
      // The client's first request loads its classes and opens the event loops; on a busy runner that alone took
      // longer than the level, so the loop never filled. Pay it before the level: a request the stall holds, cancelled.
      var warm = client.sendAsync(ApiStyle.CHAT, "m", request(8), System.nanoTime(), TextCapture.NONE);
      client.cancelAll();
      assertThat(warm.get(10, java.util.concurrent.TimeUnit.SECONDS).failure().key()).isEqualTo("CANCELLED");
      LoadRunner runner = new LoadRunner((i, due) -> client.sendAsync(ApiStyle.CHAT, "m", request(8), due, TextCapture.NONE),
          client::cancelAll, Duration.ofMillis(300), LoadRunner.Observer.NONE);
      long start = System.nanoTime();
      LoadRunner.Outcome outcome = runner.run(new LoadShape.ClosedLoop(4),
          Budget.of(new StopRule.Timed(Duration.ofMillis(1000), Duration.ofMillis(300)), 4), 1);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
      assertThat(outcome.stopReason()).isEqualTo(StopReason.DURATION);
      assertThat(outcome.traces()).hasSize(4).allSatisfy(t -> {
        assertThat(t.failure().key()).isEqualTo("CANCELLED");
        assertThat(t.failure().message()).startsWith("still running when the grace period ended");
      });
    }
  }

  /** A sender that records, per request, when it was made and when it was handed over, on which thread. */
  static final class Recording implements LoadRunner.Sender {
    final java.util.Map<Integer, Long> made = new ConcurrentHashMap<>();
    final java.util.Map<Integer, Long> handedOver = new ConcurrentHashMap<>();
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    final int failFrom;

    Recording(int failFrom) {
      this.failFrom = failFrom;
    }

    @Override
    public java.util.concurrent.CompletableFuture<RequestTrace> send(int index, long scheduledNanos) {
      return prepare(index).send(scheduledNanos);
    }

    @Override
    public LoadRunner.Prepared prepare(int index) {
      threads.add(Thread.currentThread().getName());
      if (index >= failFrom) throw new IllegalStateException("request " + index + " asked of " + failFrom);
      made.put(index, System.nanoTime());
      return scheduled -> {
        handedOver.put(index, System.nanoTime());
        return java.util.concurrent.CompletableFuture.completedFuture(dev.llmbench.testkit.Traces.at(index).content(1, 2).build());
      };
    }
  }

  @Test
  void anOpenLoopMakesEachRequestBeforeItIsDueOnItsOwnThreadAndNoMoreThanItsLookAhead() {
    Recording sender = new Recording(Integer.MAX_VALUE);
    // Due every 5 ms, the first at once; 1,000 more would be due far later than the budget lets the run go.
    LoadRunner runner = new LoadRunner(sender, () -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    LoadRunner.Outcome outcome = runner.run(new LoadShape.OpenLoop(Rate.requestsPerSecond(200), 1, OptionalInt.empty()),
        Budget.requests(40), 1, (LoadRunner.Arrivals) i -> i < 1040 ? i * 5_000_000L : -1);
    assertThat(outcome.traces()).hasSize(40);
    assertThat(sender.threads).as("made on the run's thread").containsExactly(Thread.currentThread().getName());
    for (int i = 1; i < 40; i++) {
      assertThat(sender.made.get(i)).as("request %d made before it was handed over", i).isLessThan(sender.handedOver.get(i));
    }
    // Made ahead while nothing was due, each once, and never more than the look-ahead past the last one sent.
    long madeBeforeDue = java.util.stream.IntStream.range(1, 40)
        .filter(i -> sender.handedOver.get(i) - sender.made.get(i) >= 1_000_000).count();
    assertThat(madeBeforeDue).as("requests made 1 ms or more before they went").isGreaterThanOrEqualTo(30);
    assertThat(sender.made.size()).as("requests made (40 sent)").isBetween(40, 40 + 64);
  }

  @Test
  void aRequestMadeAheadThatFailsFailsTheRunOnlyWhenItIsSent() {
    // A closed loop over 5 rows: request 5 does not exist; made ahead while the last ones run, it must not fail the run.
    Recording sender = new Recording(5);
    LoadRunner runner = new LoadRunner(sender, () -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    assertThat(runner.run(new LoadShape.ClosedLoop(1), Budget.requests(5), 1).traces()).hasSize(5);
    Recording failing = new Recording(3);
    LoadRunner more = new LoadRunner(failing, () -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> more.run(new LoadShape.ClosedLoop(1), Budget.requests(5), 1))
        .hasMessage("request 3 asked of 3");
  }
}
