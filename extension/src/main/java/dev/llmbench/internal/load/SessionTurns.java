package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Workload;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/**
 * A level's multi-turn sessions ({@link SessionSource}) as {@link Conversations}: each turn sends the session's whole
 * history with the server's real replies (and the tool calls they made, when the next turn answers them); once a
 * reply is in, the session waits its think time (and for the sub-conversations the reply fans out) and sends the next
 * turn. A failed turn ends its session: there is no reply to continue from.
 */
@API(status = INTERNAL)
public final class SessionTurns {

  /** What a level keeps of each reply, as of any load request; the session keeps the whole reply in its history. */
  static final int EXCERPT_CHARS = TextCapture.EXCERPT.maxChars();

  /** Sends one turn, meant to go at {@code scheduledNanos}; the future never completes exceptionally. */
  @FunctionalInterface
  public interface Sender {
    CompletableFuture<RequestTrace> send(CompletionRequest request, Map<String, String> headers, long scheduledNanos);
  }

  private SessionTurns() {}

  /**
   * The sessions of {@code source}, each turn sent by {@code sender} (which reads the reply whole).
   *
   * @param workload each turn's {@code max_tokens} (unless the session sets its own), {@code ignore_eos}, temperature
   *                 and prefix-cache rule
   * @param salt     keeps this batch's sessions apart from every other's under {@link Workload.PrefixCache#AVOID}
   * @param seed     the level's seed: turn {@code t} of session {@code s} sends {@code seed + 1024 s + t}
   */
  public static Conversations of(SessionSource source, WorkloadPlan workload, long salt, long seed, Sender sender) {
    return new Conversations() {
      @Override
      public Conversation start(int index) {
        return new Session(new Batch(workload, salt, sender), source, index, seed + (long) index * 1024,
            sessionId(salt, index), Markers.marker(salt, index));
      }

      @Override
      public Optional<LoadRunner.Arrivals> arrivals() {
        return source.arrivals();
      }
    };
  }

  /** The session id an affinity header carries: unique to the batch and the session. */
  static String sessionId(long salt, int session) {
    return "session-" + Markers.marker(salt, session) + "-" + session;
  }

  /** What every session of a level shares. */
  private record Batch(WorkloadPlan workload, long salt, Sender sender) {}

  /**
   * One conversation under way: its history grows by a turn's messages when made and by the reply when it arrives.
   *
   * @param seeds turn {@code t} sends {@code seeds + t}
   */
  private static final class Session implements Conversation {
    private final Batch batch;
    private final SessionSource source;
    private final int index;
    private final long seeds;
    private final String id;
    private final String marker;
    private final int turns;
    private final List<ChatMessage> history;
    /** The tool calls of the last reply, until the next turn answers them (or drops them from the history). */
    private List<ChatMessage.ToolCall> lastCalls = List.of();

    Session(Batch batch, SessionSource source, int index, long seeds, String id, String marker) {
      this(batch, source, index, seeds, id, marker, null);
    }

    /** A session whose history starts as {@code inherited} (a fork of its parent's), or its opening when null. */
    Session(Batch batch, SessionSource source, int index, long seeds, String id, String marker,
        List<ChatMessage> inherited) {
      this.batch = batch;
      this.source = source;
      this.index = index;
      this.seeds = seeds;
      this.id = id;
      this.marker = marker;
      this.turns = Math.max(1, source.turns(index));
      List<ChatMessage> opening = inherited != null ? inherited : source.opening(index);
      this.history = new ArrayList<>(opening.size() + 2 * turns);
      this.history.addAll(opening);
    }

    @Override
    public int turns() {
      return turns;
    }

    @Override
    public int requests() {
      return Math.max(turns, source.requests(index).orElse(turns));
    }

    @Override
    public LoadRunner.Prepared prepare(int turn) {
      WorkloadPlan workload = batch.workload();
      List<ChatMessage.ToolCall> calls = lastCalls;
      lastCalls = List.of();
      List<ChatMessage> messages = new ArrayList<>(source.messages(index, turn, calls));
      if (turn == 0 && workload.prefixCache() == Workload.PrefixCache.AVOID) {
        ChatMessage first = messages.get(0); // the session's own prefix, shared by all its turns
        messages.set(0, first.withContent(marker + " " + first.content()));
      }
      if (!calls.isEmpty() && !answered(calls, messages)) {
        ChatMessage reply = history.get(history.size() - 1); // a server refuses a call left unanswered
        history.set(history.size() - 1, new ChatMessage(reply.role(), reply.content()));
      }
      history.addAll(messages);
      CompletionRequest r = CompletionRequest.ofMessages(List.copyOf(history))
          .withMaxTokens(source.maxTokens(index, turn).orElse(workload.maxTokens())).withIgnoreEos(workload.ignoreEos())
          .withSeed(seeds + turn);
      for (Map.Entry<String, String> f : source.bodyFields(index, turn).entrySet()) r = r.withBodyField(f.getKey(), f.getValue());
      CompletionRequest request = workload.temperature() == null ? r : r.withTemperature(workload.temperature());
      Map<String, String> headers = source.affinityHeader().map(h -> Map.of(h, id)).orElse(Map.of());
      return scheduled -> batch.sender().send(request, headers, scheduled);
    }

    /** Whether {@code messages} hold a {@code tool} message for each of {@code calls}. */
    private static boolean answered(List<ChatMessage.ToolCall> calls, List<ChatMessage> messages) {
      java.util.Set<String> ids = new java.util.HashSet<>();
      for (ChatMessage m : messages) if (m.toolCallId() != null) ids.add(m.toolCallId());
      for (ChatMessage.ToolCall c : calls) if (!ids.contains(c.id())) return false;
      return true;
    }

    @Override
    public RequestTrace kept(int turn, RequestTrace trace) {
      return trace.withTurn(turn).withTextKept(EXCERPT_CHARS);
    }

    /** The reply joins the history; sub-conversations get ids, seeds and markers derived from this turn's. */
    @Override
    public Next replied(int turn, RequestTrace trace) {
      lastCalls = calls(trace);
      history.add(ChatMessage.assistant(trace.content(), lastCalls));
      long gap = source.thinkNanos(index, turn);
      Optional<SessionSource.FanOut> fanOut = source.fanOut(index, turn);
      if (fanOut.isEmpty()) return new Next(gap);
      List<Conversation> children = new ArrayList<>();
      List<ChatMessage> forked = null;
      for (int c = 0; c < fanOut.get().count(); c++) {
        long childSeeds = mix(seeds + turn, c);
        SessionSource sub = fanOut.get().source();
        if (sub.forks(c) && forked == null) forked = forked();
        children.add(new Session(batch, sub, c, childSeeds, id + "/" + turn + "." + c,
            Markers.marker(batch.salt() ^ childSeeds, c), sub.forks(c) ? forked : null));
      }
      return new Next(gap, children);
    }

    /**
     * The history as a fork starts from it: every message up to the last reply, whose tool calls are left out (the
     * parent's next turn answers them, not the fork's, and a server refuses a call left unanswered).
     */
    private List<ChatMessage> forked() {
      List<ChatMessage> copy = new ArrayList<>(history);
      ChatMessage reply = copy.get(copy.size() - 1);
      if (!lastCalls.isEmpty()) copy.set(copy.size() - 1, new ChatMessage(reply.role(), reply.content()));
      return List.copyOf(copy);
    }

    /**
     * The reply's tool calls, live ids and all, for the next turn to answer; none when one came without an id or cut
     * short (a {@code tool} message could not answer it as the server sent it).
     */
    private static List<ChatMessage.ToolCall> calls(RequestTrace trace) {
      if (trace.toolCalls().isEmpty() || !trace.toolCallsComplete()) return List.of();
      List<ChatMessage.ToolCall> calls = new ArrayList<>(trace.toolCalls().size());
      for (RequestTrace.ToolCall c : trace.toolCalls()) {
        if (c.id().isEmpty()) return List.of();
        calls.add(new ChatMessage.ToolCall(c.id(), c.name(), c.arguments()));
      }
      return List.copyOf(calls);
    }

    /** A seed of its own for sub-conversation {@code c} of the turn whose seed is {@code turnSeed} (SplitMix64's mix). */
    private static long mix(long turnSeed, int c) {
      long z = turnSeed + 0x9E3779B97F4A7C15L * (c + 1L);
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
