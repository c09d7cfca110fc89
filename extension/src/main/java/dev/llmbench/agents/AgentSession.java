package dev.llmbench.agents;

import dev.llmbench.client.ChatMessage;
import java.util.List;
import java.util.Map;

/**
 * One agent's session as its trace writes it: its turns in order, what opens every turn's history (a system prompt),
 * when it starts, and the sub-agents the reply to a turn fans out (each a session of its own, run in parallel, all
 * ended before the next turn).
 *
 * @param id          the trace's id of the session
 * @param line        the file's line of its first turn
 * @param startMillis when it starts, ms after the trace's start (0 for a sub-agent: it starts when spawned)
 * @param opening     what opens every turn's history; a sub-agent without its own shares its parent's
 * @param turns       its turns, at least one
 * @param subAgents   the sub-agents spawned after turn {@code key} (never the last), in the trace's order
 * @param fork        a sub-agent that starts from its parent's history (live replies included), not its opening
 */
record AgentSession(String id, long line, double startMillis, List<ChatMessage> opening, List<AgentTurn> turns,
    Map<Integer, List<AgentSession>> subAgents, boolean fork) {

  /** A session that starts from its own opening (a sub-agent spawned fresh, or a top-level agent). */
  AgentSession(String id, long line, double startMillis, List<ChatMessage> opening, List<AgentTurn> turns,
      Map<Integer, List<AgentSession>> subAgents) {
    this(id, line, startMillis, opening, turns, subAgents, false);
  }

  AgentSession {
    opening = List.copyOf(opening);
    turns = List.copyOf(turns);
    subAgents = Map.copyOf(subAgents);
    if (turns.isEmpty()) throw new IllegalArgumentException("a session has at least one turn");
  }

  /** Its turns and every sub-agent's, nested ones included: the requests it sends when none fails. */
  int requests() {
    int n = turns.size();
    for (List<AgentSession> spawned : subAgents.values()) for (AgentSession s : spawned) n += s.requests();
    return n;
  }

  /** Its sub-agents, nested ones included. */
  int subAgentCount() {
    int n = 0;
    for (List<AgentSession> spawned : subAgents.values()) for (AgentSession s : spawned) n += 1 + s.subAgentCount();
    return n;
  }
}
