package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.JsonFields;
import dev.llmbench.internal.workload.Row;
import dev.llmbench.internal.workload.TokenEstimate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * OpenAI chat-completions bodies, one per line: {@code messages} (required), and per row, optionally,
 * {@code max_tokens} (or {@code max_completion_tokens}), {@code temperature}, {@code tools} and
 * {@code response_format}, which go into that row's request body as they are.
 */
@API(status = INTERNAL)
public final class OpenAiChatReader extends JsonlReader {

  // A list, not a set: a message names them, and a Set.of iterates in a different order on each run.
  private static final List<String> ROLES = List.of("system", "developer", "user", "assistant");

  @Override
  public String format() {
    return "openai-chat";
  }

  @Override
  public String rowShape() {
    return "{\"messages\": [{\"role\": \"user\", \"content\": \"...\"}], \"max_tokens\": 128} (max_tokens, temperature, "
        + "tools, response_format optional)";
  }

  @Override
  Row row(JsonNode node, int number, long line, JsonFields fields) {
    JsonNode list = node.get("messages");
    if (list == null || list.isNull()) throw fields.bad("messages", "missing" + JsonFields.otherFormat(node), "a row like " + rowShape());
    if (!list.isArray() || list.isEmpty()) {
      throw fields.bad("messages", list.isArray() ? "is empty" : "is " + JsonFields.kind(list), "an array of {\"role\", \"content\"}");
    }
    List<ChatMessage> messages = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode m = list.get(i);
      String at = "messages[" + i + "]";
      if (!m.isObject()) throw fields.bad(at, "is " + JsonFields.kind(m), "{\"role\": \"user\", \"content\": \"...\"}");
      String role = fields.text(m, "role", at + ".role");
      // ChatMessage carries a role and text: a history of tool calls cannot be sent as it was recorded.
      if (m.has("tool_calls")) throw fields.bad(at + ".tool_calls", "tool calls in the history are not sent",
          "messages of text only; give the tools to call in the row's \"tools\"");
      if (!ROLES.contains(role)) throw fields.bad(at + ".role", "\"" + role + "\" is not a chat role", "one of " + ROLES);
      messages.add(new ChatMessage(role, content(m, at, fields)));
    }
    OptionalInt maxTokens = fields.positiveInt(node, "max_tokens");
    if (maxTokens.isEmpty()) maxTokens = fields.positiveInt(node, "max_completion_tokens");
    Map<String, String> body = new LinkedHashMap<>();
    String tools = fields.json(node, "tools", true);
    if (tools != null) body.put("tools", tools);
    String format = fields.json(node, "response_format", false);
    if (format != null) body.put("response_format", format);
    return new Row(number, line, messages, TokenEstimate.of(messages), maxTokens, fields.notNegative(node, "temperature"), body);
  }

  /** A string, or an array of text parts ({@code [{"type": "text", "text": "..."}]}) joined. */
  private static String content(JsonNode m, String at, JsonFields fields) {
    JsonNode c = m.get("content");
    if (c == null || c.isNull()) {
      throw fields.bad(at + ".content", "missing", "a string, or an array of {\"type\": \"text\", \"text\": \"...\"}");
    }
    if (c.isTextual()) return c.asText();
    if (!c.isArray()) throw fields.bad(at + ".content", "is " + JsonFields.kind(c), "a string or an array of text parts");
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < c.size(); i++) {
      JsonNode part = c.get(i);
      if (!"text".equals(part.path("type").asText()) || !part.path("text").isTextual()) {
        throw fields.bad(at + ".content[" + i + "]", "is not a text part (only text is sent)",
            "{\"type\": \"text\", \"text\": \"...\"}");
      }
      text.append(part.get("text").asText());
    }
    return text.toString();
  }
}
