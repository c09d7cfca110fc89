package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A level's sessions, as {@link SessionTurns} makes them conversations: what session {@code s} says at each turn,
 * how long its user thinks, and how many turns it has. Every answer is a pure function of the seed and the indices,
 * so runs repeat exactly; the replies come from the server at run time.
 */
@API(status = INTERNAL)
public interface SessionSource {

  /** The turns session {@code session} sends (at least 1). */
  int turns(int session);

  /** Messages that start every turn's history of {@code session} (a conversation's system prompt); usually none. */
  default List<ChatMessage> opening(int session) {
    return List.of();
  }

  /** The user's text at turn {@code turn} (from 0) of {@code session}. */
  String userText(int session, int turn);

  /** How long the user of {@code session} thinks after the reply to turn {@code turn}, in nanoseconds. */
  long thinkNanos(int session, int turn);

  /** The header whose value names the session (for routers that pin sessions to replicas), if any. */
  Optional<String> affinityHeader();

  /** The mean turns of a session, for planning (automatic sizes, the open loop's check). */
  double meanTurns();

  /** The mean think time, in nanoseconds. */
  double meanThinkNanos();
}
