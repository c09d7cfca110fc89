package dev.llmbench.internal.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.Workload;
import dev.llmbench.internal.client.RequestTrace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The load runner sending sessions, against a server of its own that answers each request with a reply no other request gets, a
 * few milliseconds later on another thread (as an event loop would): what each turn sends, when, and how many
 * sessions are under way.
 */
class SessionTurnsTests {

  /** One request as the server saw it. */
  record Seen(List<ChatMessage> messages, Map<String, String> headers, long sentNanos, String reply, long repliedNanos) {}

  private final ScheduledExecutorService server = Executors.newSingleThreadScheduledExecutor();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final AtomicInteger replies = new AtomicInteger();
  private final AtomicInteger inFlightSessions = new AtomicInteger();
  private final Map<String, Boolean> sessionsUnderWay = new ConcurrentHashMap<>();
  private final AtomicInteger maxSessionsUnderWay = new AtomicInteger();

  @AfterEach
  void stop() {
    server.shutdownNow();
  }

  /** Answers after 2 ms with {@code reply-N}; request {@code failing} (1-based) fails instead. */
  private SessionTurns.Sender sender(int failing) {
    return (request, headers, due) -> {
      long sent = System.nanoTime();
      CompletableFuture<RequestTrace> f = new CompletableFuture<>();
      int n = replies.incrementAndGet();
      String id = headers.getOrDefault("X-Session-ID", "");
      if (request.messages().size() == 1) {
        sessionsUnderWay.put(id, true);
        maxSessionsUnderWay.accumulateAndGet(sessionsUnderWay.size(), Math::max);
      }
      server.schedule(() -> {
        String reply = "reply-" + n;
        long end = System.nanoTime();
        seen.add(new Seen(request.messages(), headers, sent, reply, end));
        RequestTrace.Builder b = RequestTrace.builder().times(due, sent, end).status(200).streamed(true)
            .token(end, true, false).text(reply, "");
        if (n == failing) b.failure(new RequestFailure(ErrorKind.HTTP_STATUS, 500, "boom"));
        f.complete(b.build());
      }, 2, TimeUnit.MILLISECONDS);
      return f;
    };
  }

  /** Sessions of {@code turns} turns each, turn t of session s saying "s.t", thinking {@code thinkMs} after each reply. */
  private static SessionSource source(int turns, long thinkMs) {
    return new SessionSource() {
      @Override
      public int turns(int session) {
        return turns;
      }

      @Override
      public String userText(int session, int turn) {
        return session + "." + turn;
      }

      @Override
      public long thinkNanos(int session, int turn) {
        return thinkMs * 1_000_000;
      }

      @Override
      public Optional<String> affinityHeader() {
        return Optional.of("X-Session-ID");
      }

      @Override
      public double meanTurns() {
        return turns;
      }

      @Override
      public double meanThinkNanos() {
        return thinkMs * 1e6;
      }
    };
  }

  private static WorkloadPlan workload() {
    return new WorkloadPlan(8, 0, false, null, PromptSource.recorded("test"), Workload.PrefixCache.AVOID);
  }

  /** Marks the session's end once its last turn's reply is in (the sender sees only sends). */
  private LoadRunner.Observer ends(int turns) {
    return new LoadRunner.Observer() {
      @Override
      public void completed(RequestTrace trace) {
        if (trace.turn() == turns - 1 || !trace.succeeded()) {
          seen.stream().filter(s -> s.reply().equals(trace.content())).findFirst()
              .ifPresent(s -> sessionsUnderWay.remove(s.headers().get("X-Session-ID")));
        }
      }
    };
  }

  @Test
  void eachTurnSendsTheWholeHistoryWithTheServersOwnRepliesAndTheSessionsHeader() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), ends(3));
    SessionTurns.Sender sender = sender(0);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(2), Budget.requests(5 * 3), 1,
        SessionTurns.of(source(3, 0), workload(), 42, 1, sender));
    assertThat(out.traces()).hasSize(15);
    assertThat(out.traces()).extracting(RequestTrace::turn).containsOnly(0, 1, 2);
    List<String> ids = new ArrayList<>();
    for (Seen s : seen) {
      List<ChatMessage> m = s.messages();
      int turn = m.size() / 2;
      String id = s.headers().get("X-Session-ID");
      assertThat(id).isNotBlank();
      if (turn == 0) ids.add(id);
      String session = m.get(0).content().split(" ")[1].split("\\.")[0];
      // The unique marker starts the first turn only: every later turn repeats it, so the history is one prefix.
      assertThat(m.get(0).content()).matches("[0-9a-f]{8} " + session + "\\.0");
      for (int t = 0; t <= turn; t++) {
        assertThat(m.get(2 * t).role()).isEqualTo("user");
        if (t > 0) assertThat(m.get(2 * t).content()).isEqualTo(session + "." + t);
        if (t < turn) {
          // The reply in the history is the one the server gave that session's turn t, and no other request's.
          List<ChatMessage> asked = m.subList(0, 2 * t + 1);
          Seen earlier = seen.stream().filter(e -> e.messages().equals(asked)).findFirst().orElseThrow();
          assertThat(m.get(2 * t + 1)).isEqualTo(new ChatMessage("assistant", earlier.reply()));
          assertThat(earlier.headers().get("X-Session-ID")).isEqualTo(id);
        }
      }
    }
    assertThat(ids).hasSize(5).doesNotHaveDuplicates();
    assertThat(maxSessionsUnderWay.get()).isEqualTo(2);
  }

  @Test
  void aReplysToolCallsAreThreadedWithTheirLiveIdsWhenTheNextTurnAnswersThemAndDroppedWhenItDoesNot() {
    // Turn 0 asks with tools and the server calls two; turn 1 answers both; turn 2 answers none of the one it gets.
    List<CompletionRequest> asked = new CopyOnWriteArrayList<>();
    SessionTurns.Sender sender = (request, headers, due) -> {
      int n = asked.size() + 1;
      asked.add(request);
      long now = System.nanoTime();
      RequestTrace.Builder b = RequestTrace.builder().times(due, now, now + 1).status(200).streamed(true)
          .token(now + 1, true, false).text("", "").finishReason("tool_calls").toolCall("call-" + n + "a", "f", "{\"a\":" + n + "}");
      if (n == 1) b.toolCall("call-1b", "g", "{}");
      return CompletableFuture.completedFuture(b.build());
    };
    SessionSource source = new SessionSource() {
      @Override
      public int turns(int session) {
        return 3;
      }

      @Override
      public List<ChatMessage> messages(int session, int turn, List<ChatMessage.ToolCall> calls) {
        if (turn != 1) return List.of(ChatMessage.user(turn == 0 ? "task" : "done"));
        return calls.stream().map(c -> ChatMessage.tool(c.id(), "result of " + c.name())).toList();
      }

      @Override
      public Map<String, String> bodyFields(int session, int turn) {
        return turn < 2 ? Map.of("tools", "[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]") : Map.of();
      }

      @Override
      public long thinkNanos(int session, int turn) {
        return 0;
      }

      @Override
      public Optional<String> affinityHeader() {
        return Optional.empty();
      }

      @Override
      public double meanTurns() {
        return 3;
      }

      @Override
      public double meanThinkNanos() {
        return 0;
      }
    };
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    runner.run(new LoadShape.ClosedLoop(1), Budget.requests(3), 1, SessionTurns.of(source,
        new WorkloadPlan(8, 0, false, null, PromptSource.recorded("test"), Workload.PrefixCache.REUSE), 1, 1, sender));
    ChatMessage task = ChatMessage.user("task");
    ChatMessage called = ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("call-1a", "f", "{\"a\":1}"),
        new ChatMessage.ToolCall("call-1b", "g", "{}")));
    List<ChatMessage> answers = List.of(ChatMessage.tool("call-1a", "result of f"), ChatMessage.tool("call-1b", "result of g"));
    assertThat(asked).hasSize(3);
    assertThat(asked.get(0).messages()).containsExactly(task);
    assertThat(asked.get(1).messages()).containsExactly(task, called, answers.get(0), answers.get(1));
    // Turn 2 answers no call: the reply stays as its text alone, since a server refuses a call left unanswered.
    assertThat(asked.get(2).messages()).containsExactly(task, called, answers.get(0), answers.get(1),
        new ChatMessage("assistant", ""), ChatMessage.user("done"));
    assertThat(asked).extracting(r -> r.bodyFields().keySet()).containsExactly(java.util.Set.of("tools"),
        java.util.Set.of("tools"), java.util.Set.of());
  }

  @Test
  void theNextTurnWaitsForTheThinkTimeAfterTheReply() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    SessionTurns.Sender sender = sender(0);
    runner.run(new LoadShape.ClosedLoop(3), Budget.requests(3 * 2), 1,
        SessionTurns.of(source(2, 30), workload(), 7, 1, sender));
    assertThat(seen).hasSize(6);
    for (Seen later : seen.stream().filter(s -> s.messages().size() == 3).toList()) {
      Seen first = seen.stream().filter(e -> e.messages().equals(later.messages().subList(0, 1))).findFirst().orElseThrow();
      // A lower bound only: the reply was read at or after repliedNanos, and the think time came after that.
      assertThat(later.sentNanos() - first.repliedNanos()).isGreaterThanOrEqualTo(30_000_000L);
    }
  }

  @Test
  void aFailedTurnEndsItsSessionAndTheLevelStillSendsItsOtherSessionsWhole() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    SessionTurns.Sender sender = sender(1);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(1), Budget.requests(3 * 3), 1,
        SessionTurns.of(source(3, 0), workload(), 7, 1, sender));
    // The first session fails at its first turn: nothing to continue from. The two others send three turns each.
    assertThat(out.traces()).hasSize(1 + 3 + 3);
    assertThat(out.traces().get(0).succeeded()).isFalse();
  }

  @Test
  void aDurationBoundedLevelStopsStartingSessionsAndTurnsWhenTheTimeIsUp() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    SessionTurns.Sender sender = sender(0);
    // 100 turns with 50 ms of thinking after each: a whole session would take at least 5 s.
    long start = System.nanoTime();
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(2), Budget.of(new StopRule.Timed(Duration.ofMillis(300),
        Duration.ofSeconds(5)), 2), 1,
        SessionTurns.of(source(100, 50), workload(), 3, 1, sender));
    assertThat(System.nanoTime() - start).as("ended with its time, not with its sessions").isLessThan(5_000_000_000L);
    assertThat(out.stopReason()).isEqualTo(dev.llmbench.result.StopReason.DURATION);
    assertThat(out.traces()).isNotEmpty().allSatisfy(t -> assertThat(t.succeeded()).isTrue());
    assertThat(seen.stream().mapToInt(x -> x.messages().size() / 2 + 1).max().orElseThrow()).isLessThan(100);
  }

  @Test
  void anOpenLoopStartsSessionsAtItsRateAndCapsThoseUnderWay() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), ends(4));
    SessionTurns.Sender sender = sender(0);
    LoadShape open = new LoadShape.OpenLoop(Rate.requestsPerSecond(1000), 1, OptionalInt.of(3));
    LoadRunner.Outcome out = runner.run(open, Budget.requests(10 * 4), 5,
        SessionTurns.of(source(4, 5), workload(), 9, 5, sender));
    assertThat(out.traces()).hasSize(40);
    assertThat(maxSessionsUnderWay.get()).isEqualTo(3);
  }

  @Test
  void aCountBoundedLevelRunsEverySessionToItsEndBeforeItsGracePeriodStarts() {
    // The grace (1 ms) is far shorter than the sessions' think times (20 ms): it runs once no turn is left to send.
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofMillis(1), LoadRunner.Observer.NONE);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(2), Budget.requests(4 * 3), 1,
        SessionTurns.of(source(3, 20), workload(), 5, 1, sender(0)));
    assertThat(out.traces()).hasSize(12).allSatisfy(t -> assertThat(t.succeeded()).isTrue());
    assertThat(out.traces()).extracting(RequestTrace::turn).containsOnly(0, 1, 2);
    assertThat(out.stopReason()).isEqualTo(dev.llmbench.result.StopReason.REQUEST_COUNT);
  }

  @Test
  void theLevelKeepsAnExcerptOfEachReplyWhileTheSessionResendsItWhole() {
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(1), Budget.requests(2), 1,
        SessionTurns.of(source(2, 0), workload(), 5, 1, sender(0)));
    assertThat(out.traces()).hasSize(2);
    assertThat(out.traces()).extracting(RequestTrace::turn).containsExactly(0, 1);
    // The second turn's history holds the first reply as the server gave it.
    assertThat(seen.get(1).messages().get(1)).isEqualTo(new ChatMessage("assistant", seen.get(0).reply()));
  }

  @Test
  void aReplyThatFansOutStartsSubSessionsOfTheirOwnHistoryAndTheNextTurnWaitsForThem() {
    SessionSource sub = source(1, 0);
    SessionSource parent = new SessionSource() {
      @Override
      public int turns(int session) {
        return 2;
      }

      @Override
      public String userText(int session, int turn) {
        return "parent." + turn;
      }

      @Override
      public long thinkNanos(int session, int turn) {
        return 0;
      }

      @Override
      public Optional<FanOut> fanOut(int session, int turn) {
        return Optional.of(new FanOut(sub, 2));
      }

      @Override
      public Optional<String> affinityHeader() {
        return Optional.of("X-Session-ID");
      }

      @Override
      public double meanTurns() {
        return 2;
      }

      @Override
      public double meanThinkNanos() {
        return 0;
      }
    };
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(1), Budget.requests(2), 1,
        SessionTurns.of(parent, workload(), 42, 1, sender(0)));
    assertThat(out.traces()).hasSize(2 + 2);
    List<Seen> subs = seen.stream().filter(x -> x.messages().get(0).content().endsWith(" 0.0")
        || x.messages().get(0).content().endsWith(" 1.0")).toList();
    assertThat(subs).hasSize(2).allSatisfy(x -> assertThat(x.messages()).hasSize(1));
    String parentId = seen.get(0).headers().get("X-Session-ID");
    assertThat(subs).extracting(x -> x.headers().get("X-Session-ID")).containsExactlyInAnyOrder(parentId + "/0.0",
        parentId + "/0.1");
    Seen last = seen.stream().filter(x -> x.messages().size() == 3).findFirst().orElseThrow();
    assertThat(last.messages().get(2).content()).isEqualTo("parent.1");
    assertThat(last.sentNanos()).as("after both sub-sessions' replies")
        .isGreaterThanOrEqualTo(subs.stream().mapToLong(Seen::repliedNanos).max().orElseThrow());
  }

  /**
   * A count-bounded level counts a session's whole tree as it starts: a short session ending while a longer one's
   * sub-sessions have yet to start frees a slot, but the count already holds them, so no session more starts.
   */
  @Test
  void aCountBoundedLevelCountsEachSessionsSubSessionsAsItStartsAndStartsNoSessionMore() {
    SessionSource sub = source(1, 0);
    SessionSource trees = new SessionSource() {
      @Override
      public int turns(int session) {
        return session % 2 == 0 ? 1 : 3;
      }

      @Override
      public java.util.OptionalInt requests(int session) {
        return session % 2 == 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(3 + 2);
      }

      @Override
      public String userText(int session, int turn) {
        return session + "." + turn;
      }

      @Override
      public long thinkNanos(int session, int turn) {
        return 0;
      }

      @Override
      public Optional<FanOut> fanOut(int session, int turn) {
        return session % 2 == 1 && turn == 1 ? Optional.of(new FanOut(sub, 2)) : Optional.empty();
      }

      @Override
      public Optional<String> affinityHeader() {
        return Optional.of("X-Session-ID");
      }

      @Override
      public double meanTurns() {
        return 2;
      }

      @Override
      public double meanThinkNanos() {
        return 0;
      }
    };
    LoadRunner runner = new LoadRunner(() -> {}, Duration.ofSeconds(5), LoadRunner.Observer.NONE);
    LoadRunner.Outcome out = runner.run(new LoadShape.ClosedLoop(2), Budget.requests(1 + 5), 1,
        SessionTurns.of(trees, workload(), 42, 1, sender(0)));
    assertThat(out.traces()).hasSize(6);
    assertThat(seen).extracting(x -> x.headers().get("X-Session-ID")).filteredOn(id -> !id.contains("/"))
        .extracting(id -> id.substring(id.lastIndexOf('-') + 1)).containsOnly("0", "1");
  }
}
