package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/** One message of a chat conversation. */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChatMessage(String role, String content) {
  /**
   * Rejects a missing role or content.
   *
   * @param role {@code user}, {@code system} or {@code assistant}
   * @param content the message's text
   */
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  /**
   * {@return a message with role {@code user}}
   *
   * @param content the message's text
   */
  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }

  /**
   * {@return a message with role {@code system}}
   *
   * @param content the message's text
   */
  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }
}
