package dev.llmbench.sessions;

import dev.llmbench.client.ChatMessage;
import java.util.List;

/**
 * One conversation as a file writes it (a transcript): the messages that open every turn (a system prompt) and the
 * user's turns, in order.
 * The file's own replies are not kept: a session sends the server's.
 *
 * @param line the file's line it starts on, 1-based
 */
record Transcript(long line, List<ChatMessage> opening, List<String> userTurns) {
  public Transcript {
    opening = List.copyOf(opening);
    userTurns = List.copyOf(userTurns);
    if (userTurns.isEmpty()) throw new IllegalArgumentException("a conversation needs at least one user turn");
  }
}
