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
import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/**
 * A level's multi-turn sessions as {@link Conversations}: each turn sends the session's whole history with the
 * server's real replies; once a reply is in, the session waits its think time and sends the next turn. A failed turn
 * ends its session: there is no reply to continue from.
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
   * @param workload each turn's {@code max_tokens}, {@code ignore_eos}, temperature and prefix-cache rule
   * @param salt     keeps this batch's sessions apart from every other's under {@link Workload.PrefixCache#AVOID}
   * @param seed     the level's seed: turn {@code t} of session {@code s} sends {@code seed + 1024 s + t}
   */
  public static Conversations of(SessionSource source, WorkloadPlan workload, long salt, long seed, Sender sender) {
    return index -> new Session(source, workload, salt, seed, sender, index);
  }

  /** The session id an affinity header carries: unique to the batch and the session. */
  static String sessionId(long salt, int session) {
    return "session-" + Markers.marker(salt, session) + "-" + session;
  }

  /** One conversation under way: its history grows by the user's turn when made and by the reply when it arrives. */
  private static final class Session implements Conversation {
    private final SessionSource source;
    private final WorkloadPlan workload;
    private final long salt;
    private final long seed;
    private final Sender sender;
    private final int index;
    private final int turns;
    private final List<ChatMessage> history;

    Session(SessionSource source, WorkloadPlan workload, long salt, long seed, Sender sender, int index) {
      this.source = source;
      this.workload = workload;
      this.salt = salt;
      this.seed = seed;
      this.sender = sender;
      this.index = index;
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
      String text = source.userText(index, turn);
      if (turn == 0 && workload.prefixCache() == Workload.PrefixCache.AVOID) {
        text = Markers.marker(salt, index) + " " + text; // the session's own prefix, shared by all its turns
      }
      history.add(ChatMessage.user(text));
      CompletionRequest r = CompletionRequest.ofMessages(List.copyOf(history)).withMaxTokens(workload.maxTokens())
          .withIgnoreEos(workload.ignoreEos()).withSeed(seed + (long) index * 1024 + turn);
      CompletionRequest request = workload.temperature() == null ? r : r.withTemperature(workload.temperature());
      Map<String, String> headers = source.affinityHeader().map(h -> Map.of(h, sessionId(salt, index))).orElse(Map.of());
      return scheduled -> sender.send(request, headers, scheduled);
    }

    @Override
    public RequestTrace kept(int turn, RequestTrace trace) {
      return trace.withTurn(turn).withTextKept(EXCERPT_CHARS);
    }

    @Override
    public Next replied(int turn, RequestTrace trace) {
      history.add(new ChatMessage("assistant", trace.content()));
      return new Next(source.thinkNanos(index, turn));
    }
  }
}
