package dev.llmbench.drift;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.BadInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The prompts a drift check sends: LLMBench's own, or a JSON Lines file's, checked whole before any load. */
final class DriftPrompts {

  static final int DEFAULT_COUNT = 16;
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Fields the check sets itself: a row's own would make its replies incomparable with the reference's. */
  private static final java.util.Set<String> RESERVED = java.util.Set.of("prompt", "messages", "model", "max_tokens",
      "max_completion_tokens", "temperature", "seed", "stream", "stream_options", "logprobs", "top_logprobs", "ignore_eos", "n");
  private static final String SHAPE = "{\"prompt\": \"...\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}]}";

  /** Varied, open-ended prompts: replies long enough that a drifting model shows where it leaves the reference. */
  private static final List<String> BUILT_IN = List.of(
      "Explain how a hash table handles collisions.",
      "Write a short story about a lighthouse keeper who finds a message in a bottle.",
      "List the steps to make a cup of tea, one per line.",
      "What are the trade-offs between TCP and UDP?",
      "Describe the water cycle to a ten-year-old.",
      "Summarise the plot of a detective novel you invent, in five sentences.",
      "Give three arguments for and three against remote work.",
      "How does a compiler turn source code into machine code?",
      "Write a limerick about a cat who learned to program.",
      "Explain the difference between latency and throughput with an example.",
      "What happens, step by step, when you type a URL into a browser?",
      "Describe a city in the year 2200.",
      "Translate the idea of recursion into a recipe.",
      "Why is the sky blue? Answer in detail.",
      "Write a dialogue between a teacher and a student about fractions.",
      "Compare quicksort and merge sort.",
      "Plan a three-day trip to the mountains.",
      "Explain what a GPU does that a CPU does not.",
      "Write the opening paragraph of a fantasy novel.",
      "How do vaccines train the immune system?",
      "Describe how bread rises.",
      "Give advice to someone starting their first job as an engineer.",
      "Explain eventual consistency in distributed databases.",
      "Write a poem about autumn rain.");

  private DriftPrompts() {}

  /**
   * One prompt.
   *
   * @param messages   what it sends
   * @param bodyFields the row's other fields, sent as they are ({@code logit_bias}, {@code stop}); each a JSON value as text
   */
  record Prompt(List<ChatMessage> messages, Map<String, String> bodyFields) {
    Prompt {
      messages = List.copyOf(messages);
      bodyFields = Map.copyOf(bodyFields);
    }
  }

  static List<Prompt> builtIn(int count) {
    int n = count == 0 ? DEFAULT_COUNT : count;
    List<Prompt> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String text = BUILT_IN.get(i % BUILT_IN.size());
      // Past the list's end a prompt is numbered, so that no two prompts are the same.
      out.add(new Prompt(List.of(ChatMessage.user(i < BUILT_IN.size() ? text : text + " (" + (i / BUILT_IN.size() + 1) + ")")),
          Map.of()));
    }
    return out;
  }

  /**
   * The first {@code count} prompts of {@code file} (0: all).
   *
   * @throws BadInputException naming the file, its line and what is wrong
   */
  static List<Prompt> read(Path file, int count) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file.toAbsolutePath(), 0, "", "no such file", "a JSON Lines file of prompts, " + SHAPE + " a line");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the drift prompts " + file.toAbsolutePath(), e);
    }
    List<Prompt> out = new ArrayList<>();
    for (int i = 0; i < lines.size() && (count == 0 || out.size() < count); i++) {
      String line = lines.get(i);
      if (line.isBlank()) continue;
      JsonNode row;
      try {
        row = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw new BadInputException(file, i + 1, "", "not JSON (" + e.getOriginalMessage() + ")", SHAPE);
      }
      if (!row.isObject()) throw new BadInputException(file, i + 1, "", "not a JSON object", SHAPE);
      Map<String, String> fields = new LinkedHashMap<>();
      row.fields().forEachRemaining(f -> {
        if (!RESERVED.contains(f.getKey())) fields.put(f.getKey(), f.getValue().toString());
      });
      out.add(new Prompt(messages(file, i + 1, row), fields));
    }
    if (out.isEmpty()) throw new BadInputException(file, 0, "", "holds no prompts", SHAPE + " a line");
    return out;
  }

  private static List<ChatMessage> messages(Path file, int line, JsonNode row) {
    if (row.path("prompt").isTextual() && !row.get("prompt").asText().isBlank()) return List.of(ChatMessage.user(row.get("prompt").asText()));
    JsonNode messages = row.path("messages");
    if (!messages.isArray() || messages.isEmpty()) {
      throw new BadInputException(file, line, "prompt", "missing (and no \"messages\")", "a non-blank string, or \"messages\": "
          + "a non-empty array");
    }
    List<ChatMessage> out = new ArrayList<>();
    for (JsonNode m : messages) {
      if (!m.path("role").isTextual() || !m.path("content").isTextual()) {
        throw new BadInputException(file, line, "messages", "holds " + m, "objects with a \"role\" and a \"content\" string");
      }
      out.add(new ChatMessage(m.get("role").asText(), m.get("content").asText()));
    }
    return out;
  }
}
