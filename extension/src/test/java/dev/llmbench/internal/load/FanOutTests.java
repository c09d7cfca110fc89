package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A turn that fans out sub-conversations (sub-agents): they start at once, each on its own, and the parent's next turn
 * goes only once they have all ended, through the one runner, against a server of its own that answers each
 * request 2 ms later on another thread.
 */
class FanOutTests {

  private final ScheduledExecutorService server = Executors.newSingleThreadScheduledExecutor();
  /** When each request (by its name, e.g. {@code 0.1} or {@code 0.0/2.1}) was sent and answered. */
  private final Map<String, long[]> seen = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    server.shutdownNow();
  }

  private LoadRunner.Prepared request(String name) {
    return scheduled -> {
      long sent = System.nanoTime();
      CompletableFuture<RequestTrace> f = new CompletableFuture<>();
      server.schedule(() -> {
        long end = System.nanoTime();
        seen.put(name, new long[] {sent, end});
        f.complete(RequestTrace.builder().times(scheduled, sent, end).status(200).streamed(true).token(end, true, false)
            .text(name, "").build());
      }, 2, TimeUnit.MILLISECONDS);
      return f;
    };
  }

  /** {@code turns} turns named {@code name.t}; after turn {@code fanAt}, {@code children} sub-conversations of 2 turns. */
  private Conversation conversation(String name, int turns, int fanAt, int children) {
    return new Conversation() {
      @Override
      public int turns() {
        return turns;
      }

      @Override
      public LoadRunner.Prepared prepare(int turn) {
        return request(name + "." + turn);
      }

      @Override
      public Next replied(int turn, RequestTrace trace) {
        if (turn != fanAt) return new Next(1_000_000);
        return new Next(0, java.util.stream.IntStream.range(0, children)
            .mapToObj(c -> conversation(name + "." + turn + "/" + c, 2, -1, 0)).toList());
      }
    };
  }

  @Test
  void theNextTurnWaitsForEverySubConversationAndTheLevelKeepsThemAll() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(1), Budget.requests(3), 1,
        (Conversations) index -> conversation(Integer.toString(index), 3, 0, 3));
    // The parent's 3 turns and its 3 sub-conversations' 2 each.
    assertThat(out.traces()).hasSize(3 + 3 * 2);
    assertThat(out.stopReason()).isEqualTo(StopReason.REQUEST_COUNT);
    long lastChild = List.of("0.0/0.1", "0.0/1.1", "0.0/2.1").stream().mapToLong(n -> seen.get(n)[1]).max().orElseThrow();
    assertThat(seen.get("0.1")[0]).as("the parent's next turn is sent after every sub-conversation's last reply")
        .isGreaterThanOrEqualTo(lastChild);
    for (String child : List.of("0.0/0.0", "0.0/1.0", "0.0/2.0")) {
      assertThat(seen.get(child)[0]).as("%s starts once the fanning turn's reply is in", child)
          .isGreaterThanOrEqualTo(seen.get("0.0")[1]);
    }
  }

  @Test
  void aTimeBoundedLevelSendsNoLaterTurnOfAParentOrItsSubConversationsOnceTheTimeIsUp() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    long start = System.nanoTime();
    // Sub-conversations of 2 turns after every turn but the last of 1,000: far more than 200 ms holds.
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(2), Budget.of(new StopRule.Timed(Duration.ofMillis(200),
        Duration.ofSeconds(5)), 2), 1, (Conversations) index -> new Conversation() {
          final Conversation inner = conversation(Integer.toString(index), 1000, -1, 0);

          @Override
          public int turns() {
            return 1000;
          }

          @Override
          public LoadRunner.Prepared prepare(int turn) {
            return inner.prepare(turn);
          }

          @Override
          public Next replied(int turn, RequestTrace trace) {
            return new Next(0, List.of(conversation(index + "." + turn + "/0", 2, -1, 0)));
          }
        });
    assertThat(System.nanoTime() - start).as("ended with its time").isLessThan(3_000_000_000L);
    assertThat(out.stopReason()).isEqualTo(StopReason.DURATION);
    assertThat(out.traces()).isNotEmpty().allSatisfy(t -> assertThat(t.succeeded()).isTrue());
  }
}
