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
 * history with the server's real replies; once a reply is in, the session waits its think time (and for the
 * sub-conversations the reply fans out) and sends the next turn. A failed turn ends its session: there is no reply to
 * continue from.
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

    Session(Batch batch, SessionSource source, int index, long seeds, String id, String marker) {
      this.batch = batch;
      this.source = source;
      this.index = index;
      this.seeds = seeds;
      this.id = id;
      this.marker = marker;
      this.turns = Math.max(1, source.turns(index));
      List<ChatMessage> opening = source.opening(index);
      this.history = new ArrayList<>(opening.size() + 2 * turns);
      this.history.addAll(opening);
    }

    @Override
    public int turns() {
      return turns;
    }

    @Override
    public LoadRunner.Prepared prepare(int turn) {
      WorkloadPlan workload = batch.workload();
      List<ChatMessage> messages = new ArrayList<>(source.messages(index, turn));
      if (turn == 0 && workload.prefixCache() == Workload.PrefixCache.AVOID) {
        ChatMessage first = messages.get(0); // the session's own prefix, shared by all its turns
        messages.set(0, new ChatMessage(first.role(), marker + " " + first.content()));
      }
      history.addAll(messages);
      CompletionRequest r = CompletionRequest.ofMessages(List.copyOf(history))
          .withMaxTokens(source.maxTokens(index, turn).orElse(workload.maxTokens())).withIgnoreEos(workload.ignoreEos())
          .withSeed(seeds + turn);
      CompletionRequest request = workload.temperature() == null ? r : r.withTemperature(workload.temperature());
      Map<String, String> headers = source.affinityHeader().map(h -> Map.of(h, id)).orElse(Map.of());
      return scheduled -> batch.sender().send(request, headers, scheduled);
    }

    @Override
    public RequestTrace kept(int turn, RequestTrace trace) {
      return trace.withTurn(turn).withTextKept(EXCERPT_CHARS);
    }

    /** The reply joins the history; sub-conversations get ids, seeds and markers derived from this turn's. */
    @Override
    public Next replied(int turn, RequestTrace trace) {
      history.add(new ChatMessage("assistant", trace.content()));
      long gap = source.thinkNanos(index, turn);
      Optional<SessionSource.FanOut> fanOut = source.fanOut(index, turn);
      if (fanOut.isEmpty()) return new Next(gap);
      List<Conversation> children = new ArrayList<>();
      for (int c = 0; c < fanOut.get().count(); c++) {
        long childSeeds = mix(seeds + turn, c);
        children.add(new Session(batch, fanOut.get().source(), c, childSeeds, id + "/" + turn + "." + c,
            Markers.marker(batch.salt() ^ childSeeds, c)));
      }
      return new Next(gap, children);
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
