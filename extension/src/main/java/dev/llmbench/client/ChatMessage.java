package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One message of a chat conversation: a role and its text, and for an agent's history the tool calls an assistant's
 * reply made ({@link #toolCalls()}) or the call a {@code tool} message answers ({@link #toolCallId()}), sent as
 * OpenAI's chat API writes them.
 *
 * @param role       {@code user}, {@code system}, {@code assistant} or {@code tool}
 * @param content    the message's text
 * @param toolCalls  the tool calls of an assistant's message, as the server sent them; empty for none
 * @param toolCallId the id of the call a {@code tool} message answers; null for any other message
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChatMessage(String role, String content, List<ToolCall> toolCalls, String toolCallId) {
  /**
   * Rejects a missing role or content, tool calls on a message that is not the assistant's, and a call id on a
   * message that is not a tool's.
   *
   * @param role       {@code user}, {@code system}, {@code assistant} or {@code tool}
   * @param content    the message's text
   * @param toolCalls  the tool calls of an assistant's message; copied
   * @param toolCallId the id of the call a {@code tool} message answers, or null
   */
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
    toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
    if (!toolCalls.isEmpty() && !role.equals("assistant")) {
      throw new IllegalArgumentException("only an assistant's message carries tool calls, not one of role " + role);
    }
    if (toolCallId != null && !role.equals("tool")) {
      throw new IllegalArgumentException("only a tool's message answers a tool call, not one of role " + role);
    }
  }

  /**
   * A message of a role and its text alone.
   *
   * @param role    {@code user}, {@code system}, {@code assistant} or {@code tool}
   * @param content the message's text
   */
  public ChatMessage(String role, String content) {
    this(role, content, List.of(), null);
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

  /**
   * {@return an assistant's message: a reply's text and the tool calls it made, as the server sent them}
   *
   * @param content   the reply's text (empty when it only called tools)
   * @param toolCalls its tool calls, in the server's order; empty for none
   */
  public static ChatMessage assistant(String content, List<ToolCall> toolCalls) {
    return new ChatMessage("assistant", content, toolCalls, null);
  }

  /**
   * {@return a {@code tool} message: the result of the call whose id is {@code toolCallId}}
   *
   * @param toolCallId the id of the call it answers, as the server sent it
   * @param content    the tool's result
   */
  public static ChatMessage tool(String toolCallId, String content) {
    return new ChatMessage("tool", content, List.of(), Objects.requireNonNull(toolCallId, "toolCallId"));
  }

  /**
   * {@return the same message with another text}
   *
   * @param content the message's text
   */
  public ChatMessage withContent(String content) {
    return new ChatMessage(role, content, toolCalls, toolCallId);
  }

  /**
   * One tool call of an assistant's message, as the server sent it: its id is the one a {@code tool} message answers.
   *
   * @param id        the call's id ({@code tool_calls[].id})
   * @param name      the function's name
   * @param arguments the arguments as the model wrote them (JSON, if it wrote it well)
   */
  @API(status = EXPERIMENTAL, since = "0.2")
  public record ToolCall(String id, String name, String arguments) {
    /**
     * Rejects a missing id, name or arguments.
     *
     * @param id        the call's id
     * @param name      the function's name
     * @param arguments the arguments as the model wrote them
     */
    public ToolCall {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(arguments, "arguments");
    }
  }
}
