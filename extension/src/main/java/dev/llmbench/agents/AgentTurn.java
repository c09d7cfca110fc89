package dev.llmbench.agents;

import java.util.List;

/**
 * One turn of an agent as its trace writes it: what the client adds to the history before sending it (the user's
 * text or a tool's result, as text or as a length in tokens with the blocks it shares), the reply's
 * {@code max_tokens}, and the tool the reply runs before the next turn.
 *
 * @param line         the file's line it was read from, 1-based
 * @param inputs       what the turn adds to the history, at least one
 * @param outputTokens the reply's {@code max_tokens}; 0 for the workload's
 * @param toolMillis   how long the tool the reply calls runs before the next turn, ms; 0 when it calls none
 * @param tool         the tool's name, or empty
 */
record AgentTurn(long line, List<Input> inputs, int outputTokens, double toolMillis, String tool) {

  AgentTurn {
    inputs = List.copyOf(inputs);
    if (inputs.isEmpty()) throw new IllegalArgumentException("a turn adds at least one message");
  }

  /** Whether the reply to this turn calls a tool (so the next turn may bring its result). */
  boolean callsTool() {
    return toolMillis > 0 || !tool.isEmpty();
  }

  /**
   * One message the turn adds.
   *
   * @param tool     whether it is a tool's result (else the user's)
   * @param text     its text, or null when it is {@code tokens} of synthetic text
   * @param tokens   its length in tokens when synthetic (about a word each)
   * @param hashIds  the blocks it is made of, equal ids giving equal text (prefix reuse); null for blocks of its own
   */
  record Input(boolean tool, String text, int tokens, long[] hashIds) {
    static Input text(boolean tool, String text) {
      return new Input(tool, text, 0, null);
    }
  }
}
