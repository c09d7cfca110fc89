package dev.llmbench.internal.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A file of prompts ({@code @Workload(prompts)}), read whole and checked line by line. */
final class PromptFiles {

  private PromptFiles() {}

  /**
   * Reads a JSONL file: each line {@code {"prompt": "..."}} or {@code {"messages": [{"role": ..., "content": ...}]}}.
   *
   * @throws IllegalArgumentException naming the file and line when a line is neither
   */
  static List<List<ChatMessage>> read(Path file) {
    List<List<ChatMessage>> conversations = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read prompt file " + file.toAbsolutePath(), e);
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) continue;
      try {
        JsonNode node = json.readTree(line);
        if (node.path("prompt").isTextual()) {
          conversations.add(List.of(ChatMessage.user(node.get("prompt").asText())));
        } else if (node.path("messages").isArray() && !node.get("messages").isEmpty()) {
          List<ChatMessage> messages = new ArrayList<>();
          for (JsonNode m : node.get("messages")) {
            messages.add(new ChatMessage(m.path("role").asText("user"), m.path("content").asText()));
          }
          conversations.add(messages);
        } else {
          throw new IllegalArgumentException("has neither \"prompt\" nor \"messages\"");
        }
      } catch (IOException | IllegalArgumentException e) {
        // Jackson's own message ends with its internal source position; the file and line say more.
        String why = e instanceof JsonProcessingException j ? "not JSON (" + j.getOriginalMessage() + ")" : e.getMessage();
        throw new IllegalArgumentException(file + " line " + (i + 1) + " is not a prompt: " + why
            + " (expected {\"prompt\": \"...\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}]})", e);
      }
    }
    if (conversations.isEmpty()) throw new IllegalArgumentException(file + " holds no prompts");
    return List.copyOf(conversations);
  }
}
