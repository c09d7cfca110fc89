package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.embedded.EmbeddedLlmServer;
import dev.llmbench.internal.embedded.EmbeddedOptions;
import dev.llmbench.internal.embedded.PerformanceProfile;
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
  void aTimedLevelCancelsWhatIsStillRunningWhenItsGraceEndsAndSaysWhy() {
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(EmbeddedOptions.builder(PerformanceProfile.INSTANT)
        .faults("stall:every1").build());
        OpenAiClient client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(60), Duration.ofSeconds(60))) {
      LoadRunner runner = new LoadRunner((i, due) -> client.sendAsync(ApiStyle.CHAT, "m", request(8), due, TextCapture.NONE),
          client::cancelAll, Duration.ofMillis(300), LoadRunner.Observer.NONE);
      long start = System.nanoTime();
      LoadRunner.Outcome outcome = runner.run(new LoadShape.ClosedLoop(4),
          Budget.of(new StopRule.Timed(Duration.ofMillis(200), Duration.ofMillis(300)), 4), 1);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
      assertThat(outcome.stopReason()).isEqualTo(StopReason.DURATION);
      assertThat(outcome.traces()).hasSize(4).allSatisfy(t -> {
        assertThat(t.failure().key()).isEqualTo("CANCELLED");
        assertThat(t.failure().message()).startsWith("still running when the grace period ended");
      });
    }
  }
}
