package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * One row of a dataset as a request sends it.
 *
 * @param number       1-based position of the row among the file's rows (what "rows 1-200" counts)
 * @param line         1-based line of the file where the row starts, for messages
 * @param messages     the conversation to send
 * @param inputTokens  the prompt's length in tokens as the file gives it, or as estimated from its text
 * @param outputTokens the row's own output length ({@code max_tokens}, {@code output_tokens}, a reply's length), if any
 * @param temperature  the row's own {@code temperature}, or null
 * @param bodyFields   further request-body fields the row carries ({@code tools}, {@code response_format}), as JSON text
 */
@API(status = INTERNAL)
public record Row(int number, long line, List<ChatMessage> messages, int inputTokens, OptionalInt outputTokens,
    Double temperature, Map<String, String> bodyFields) {

  public Row {
    messages = List.copyOf(messages);
    if (messages.isEmpty()) throw new IllegalArgumentException("a row needs at least one message");
    Objects.requireNonNull(outputTokens, "outputTokens");
    bodyFields = Map.copyOf(bodyFields);
  }
}
