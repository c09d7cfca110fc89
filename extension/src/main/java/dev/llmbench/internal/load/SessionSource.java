package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A level's multi-turn conversations (sessions) as their source writes them, {@link SessionTurns} making them
 * {@link Conversation}s: how many turns session {@code s} has, what each turn adds to its history, how long the
 * session waits after each reply, and what a reply fans out. Every answer is a pure function of the seed and the
 * indices, so runs repeat exactly; the replies come from the server at run time, and each later turn resends them.
 */
@API(status = INTERNAL)
public interface SessionSource {

  /** The turns session {@code session} sends (at least 1). */
  int turns(int session);

  /**
   * The requests session {@code session} sends when none fails, those of the sub-conversations its fan-outs start
   * included ({@link Conversation#requests()}); empty (the default) when they are its turns, as without fan-outs. Asked
   * as the session starts, after {@link #turns}.
   */
  default OptionalInt requests(int session) {
    return OptionalInt.empty();
  }

  /**
   * Whether sub-conversation {@code session} starts from the history of the conversation whose reply fanned it out
   * (every message and live reply up to that reply, the reply's tool calls left out) instead of its own
   * {@link #opening}: a fork, sharing its parent's whole prefix. False by default: it starts fresh.
   */
  default boolean forks(int session) {
    return false;
  }

  /** Messages that start every turn's history of {@code session} (a conversation's system prompt); usually none. */
  default List<ChatMessage> opening(int session) {
    return List.of();
  }

  /**
   * What turn {@code turn} (from 0) of {@code session} adds to its history before it is sent: by default the user's
   * text ({@link #userText}); a source may add other messages (e.g. a tool's results). A unique marker goes at the
   * start of the first turn's first message when the level keeps prompts out of the prefix cache.
   */
  default List<ChatMessage> messages(int session, int turn) {
    return List.of(ChatMessage.user(userText(session, turn)));
  }

  /**
   * What turn {@code turn} adds, knowing the tool calls the reply before it made ({@code calls}, as the server sent
   * them; empty on the first turn or when it made none): a source that answers them returns one {@code tool} message
   * per call ({@link ChatMessage#tool}), first, and the calls stay in the reply's message of the history; calls the
   * messages do not all answer are dropped from it (the reply's text alone stays), since a server refuses a history
   * with an unanswered call. By default {@link #messages(int, int)}: no call answered.
   */
  default List<ChatMessage> messages(int session, int turn, List<ChatMessage.ToolCall> calls) {
    return messages(session, turn);
  }

  /**
   * Turn {@code turn}'s own top-level body fields (e.g. its {@code tools}), each a JSON value as text; none by
   * default.
   */
  default Map<String, String> bodyFields(int session, int turn) {
    return Map.of();
  }

  /** The user's text at turn {@code turn} of {@code session}, as {@link #messages} sends it by default. */
  default String userText(int session, int turn) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " writes each turn's messages itself");
  }

  /** Turn {@code turn}'s own {@code max_tokens}, or empty for the level's. */
  default OptionalInt maxTokens(int session, int turn) {
    return OptionalInt.empty();
  }

  /** How long {@code session} waits after the reply to turn {@code turn} (a user's think time), in nanoseconds. */
  long thinkNanos(int session, int turn);

  /**
   * The sub-conversations the reply to turn {@code turn} (not the last) of {@code session} starts, e.g. sub-agents;
   * its next turn waits for them all. Empty for none.
   */
  default Optional<FanOut> fanOut(int session, int turn) {
    return Optional.empty();
  }

  /** The sessions' own schedule (a recorded trace's start times), or empty to start them as the load shape says. */
  default Optional<LoadRunner.Arrivals> arrivals() {
    return Optional.empty();
  }

  /** The header whose value names the session (for routers that pin sessions to replicas), if any. */
  Optional<String> affinityHeader();

  /** The mean turns of a session, for planning (automatic sizes, the open loop's check). */
  double meanTurns();

  /** The mean think time, in nanoseconds. */
  double meanThinkNanos();

  /**
   * Sub-conversations: sessions {@code 0 .. count - 1} of {@code source}, each with a history of its own.
   *
   * @param source what each sub-conversation says
   * @param count  how many start, at least 1
   */
  record FanOut(SessionSource source, int count) {
    public FanOut {
      if (count < 1) throw new IllegalArgumentException("a fan-out starts at least 1 sub-conversation, was " + count);
    }
  }
}
