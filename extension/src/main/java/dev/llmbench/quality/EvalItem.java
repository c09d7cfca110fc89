package dev.llmbench.quality;

import dev.llmbench.client.ChatMessage;
import java.util.List;

/**
 * One question of an eval set: what is sent, and how its reply is graded.
 *
 * @param id       stable across runs and deployments: a generated item's ({@code arithmetic-17}), a row's
 *                 {@code id} field, else {@code file:line}
 * @param messages the chat messages sent
 * @param grader   the grader, holding the expected answer
 */
record EvalItem(String id, List<ChatMessage> messages, Grader grader) {

  public EvalItem {
    messages = List.copyOf(messages);
  }

  /** The last message's text: what a report shows as the question. */
  public String question() {
    return messages.get(messages.size() - 1).content();
  }
}
