package dev.llmbench;

import java.util.Objects;

/** One message of a chat conversation. */
public record ChatMessage(String role, String content) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }

  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }
}
