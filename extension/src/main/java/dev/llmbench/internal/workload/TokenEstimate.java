package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A text's length in tokens without the model's tokenizer: about four characters per token, OpenAI's rule of
 * thumb for English. Used where a dataset gives text but no lengths (a ShareGPT reply, a chat prompt), for
 * vLLM's ShareGPT filter and the requested lengths a level reports; the server's {@code usage} gives the
 * actual ones.
 */
@API(status = INTERNAL)
public final class TokenEstimate {

  static final int CHARS_PER_TOKEN = 4;

  private TokenEstimate() {}

  public static int of(String text) {
    int chars = text.codePointCount(0, text.length());
    return Math.max(1, (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
  }

  public static int of(List<ChatMessage> messages) {
    return messages.stream().mapToInt(m -> of(m.content())).sum();
  }
}
