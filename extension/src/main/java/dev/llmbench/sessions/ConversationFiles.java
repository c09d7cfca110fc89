package dev.llmbench.sessions;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a file of conversations whole, before any load, keeping every user turn of each: a ShareGPT array (streamed,
 * one conversation in memory at a time) or JSON Lines of {@code {"messages": [...]}}. A turn without its role or
 * content, or of a role no chat server takes, fails with the file, line and field and what would be accepted.
 */
final class ConversationFiles {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();
  private static final Set<String> HUMAN = Set.of("human", "user");
  // Lists, not sets: a message names them, and a Set.of iterates in a different order on each run.
  private static final List<String> SHAREGPT_ROLES = List.of("human", "user", "gpt", "chatgpt", "bing", "bard", "assistant",
      "model", "system");
  private static final List<String> CHAT_ROLES = List.of("system", "developer", "user", "assistant");
  static final String SHAREGPT_ROW = "{\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, {\"from\": \"gpt\", "
      + "\"value\": \"...\"}, ...]}";
  static final String JSONL_ROW = "{\"messages\": [{\"role\": \"user\", \"content\": \"...\"}, {\"role\": \"assistant\", "
      + "\"content\": \"...\"}, ...]}";

  /**
   * What a file held: its conversations with a user turn, how many had none, and how many of those kept began with the
   * model's turn (after any system prompt), which a session does not send: it starts at the first user turn.
   */
  public record Read(List<Transcript> conversations, int skipped, int modelFirst) {
    public Read(List<Transcript> conversations, int skipped) {
      this(conversations, skipped, 0);
    }
  }

  private ConversationFiles() {}

  /** @throws BadInputException when a conversation is not of the format, or none has a user turn */
  public static Read read(Path file, Sessions.Format format) {
    List<Transcript> all = new ArrayList<>();
    int[] skipped = {0, 0}; // without a user turn; kept but opening with the model's turn
    try {
      if (format == Sessions.Format.SHAREGPT) readShareGpt(file, all, skipped);
      else readJsonl(file, all, skipped);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file.toAbsolutePath(), 0, "", "does not exist", "a path relative to the working directory "
          + "(the module's folder under Maven) or absolute");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
    }
    if (all.isEmpty()) {
      throw new BadInputException(file, 0, "", "has no conversation with a user turn" + (skipped[0] > 0 ? " (" + skipped[0]
          + " without one)" : ""), "at least one conversation like " + (format == Sessions.Format.SHAREGPT ? SHAREGPT_ROW
          : JSONL_ROW));
    }
    return new Read(List.copyOf(all), skipped[0], skipped[1]);
  }

  private static void readShareGpt(Path file, List<Transcript> all, int[] skipped) throws IOException {
    String expected = "a ShareGPT file: [" + SHAREGPT_ROW + ", ...]";
    try (InputStream in = Files.newInputStream(file); JsonParser p = FACTORY.createParser(in)) {
      p.setCodec(JSON);
      JsonToken first = p.nextToken();
      if (first == null) throw new BadInputException(file, 0, "", "is empty", expected);
      if (first != JsonToken.START_ARRAY) {
        throw new BadInputException(file, p.currentLocation().getLineNr(), "", "is not a JSON array"
            + (first == JsonToken.START_OBJECT ? " (it starts with an object: JSON Lines are format JSONL)" : ""), expected);
      }
      int number = 0;
      while (true) {
        JsonToken t = p.nextToken();
        if (t == JsonToken.END_ARRAY) return;
        long line = p.currentLocation().getLineNr();
        if (t == null) throw new BadInputException(file, line, "", "ends before its array closes", expected);
        JsonNode entry = p.readValueAsTree();
        String at = "[" + number++ + "]";
        if (!entry.isObject()) throw new BadInputException(file, line, at, "is not an object", SHAREGPT_ROW);
        JsonNode turns = entry.get("conversations");
        if (turns == null || !turns.isArray()) {
          throw new BadInputException(file, line, "conversations", turns == null ? "missing" : "is not an array", SHAREGPT_ROW);
        }
        List<ChatMessage> opening = new ArrayList<>();
        List<String> user = new ArrayList<>();
        boolean modelFirst = false;
        for (int i = 0; i < turns.size(); i++) {
          String from = text(file, line, turns.get(i), "from", "conversations[" + i + "]", "one of " + SHAREGPT_ROLES);
          String value = text(file, line, turns.get(i), "value", "conversations[" + i + "]", "the turn's text");
          if (!SHAREGPT_ROLES.contains(from)) {
            throw new BadInputException(file, line, "conversations[" + i + "].from", "is \"" + from + "\"", "one of "
                + SHAREGPT_ROLES);
          }
          if (HUMAN.contains(from)) user.add(value);
          else if (from.equals("system") && user.isEmpty()) opening.add(ChatMessage.system(value));
          else if (user.isEmpty()) modelFirst = true;
        }
        if (user.isEmpty()) skipped[0]++;
        else all.add(new Transcript(line, opening, user));
        if (!user.isEmpty() && modelFirst) skipped[1]++;
      }
    } catch (JsonParseException e) {
      throw new BadInputException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(), "",
          "is not JSON (" + e.getOriginalMessage() + ")", expected, e);
    }
  }

  private static void readJsonl(Path file, List<Transcript> all, int[] skipped) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String text;
      long line = 0;
      while ((text = in.readLine()) != null) {
        line++;
        if (text.isBlank()) continue;
        JsonNode row;
        try {
          row = JSON.readTree(text);
        } catch (JsonParseException e) {
          throw new BadInputException(file, line, "", "is not JSON (" + e.getOriginalMessage() + ")", "one conversation a "
              + "line: " + JSONL_ROW, e);
        }
        if (row == null || !row.isObject()) throw new BadInputException(file, line, "", "is not a JSON object", JSONL_ROW);
        JsonNode messages = row.get("messages");
        if (messages == null || !messages.isArray()) {
          throw new BadInputException(file, line, "messages", messages == null ? "missing" : "is not an array", JSONL_ROW);
        }
        List<ChatMessage> opening = new ArrayList<>();
        List<String> user = new ArrayList<>();
        boolean modelFirst = false;
        for (int i = 0; i < messages.size(); i++) {
          String role = text(file, line, messages.get(i), "role", "messages[" + i + "]", "one of " + CHAT_ROLES);
          String content = text(file, line, messages.get(i), "content", "messages[" + i + "]", "the message's text");
          if (!CHAT_ROLES.contains(role)) {
            throw new BadInputException(file, line, "messages[" + i + "].role", "is \"" + role + "\"", "one of " + CHAT_ROLES);
          }
          if (role.equals("user")) user.add(content);
          else if (!role.equals("assistant") && user.isEmpty()) opening.add(new ChatMessage(role, content));
          else if (user.isEmpty()) modelFirst = true;
        }
        if (user.isEmpty()) skipped[0]++;
        else all.add(new Transcript(line, opening, user));
        if (!user.isEmpty() && modelFirst) skipped[1]++;
      }
    }
  }

  /** A turn's required text field. */
  private static String text(Path file, long line, JsonNode turn, String field, String at, String accepted) {
    if (turn == null || !turn.isObject()) throw new BadInputException(file, line, at, "is not an object", "{\"" + field
        + "\": ...} with its text fields");
    JsonNode n = turn.get(field);
    if (n == null || n.isNull()) throw new BadInputException(file, line, at + "." + field, "missing", accepted);
    if (!n.isTextual()) throw new BadInputException(file, line, at + "." + field, "is not a string", accepted + ", a string");
    return n.asText();
  }
}
