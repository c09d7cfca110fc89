package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.ChatMessage;
import dev.llmbench.CompletionRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Where a level's prompts come from: the built-in set, a JSONL file, or synthetic text of a target
 * length. Request {@code i} is a pure function of the seed and {@code i}, so runs repeat exactly.
 */
@API(status = INTERNAL)
public final class PromptSource {

  /** Prompts of the kind people send a chat model, short and long. */
  static final List<String> BUILT_IN = List.of(
      "Explain how continuous batching improves GPU utilisation in LLM inference servers.",
      "Write a short story about a lighthouse keeper who discovers a message in a bottle.",
      "Summarise the causes and consequences of the French Revolution in a few paragraphs.",
      "Write a Python function that merges two sorted lists, and explain its complexity.",
      "What are the trade-offs between tensor parallelism and pipeline parallelism?",
      "Describe the water cycle to a ten-year-old.",
      "Compare the KV cache memory needs of multi-head, grouped-query and multi-head latent attention.",
      "Draft an email asking a colleague to review a pull request before Friday.");

  private static final String[] SYNTHETIC_WORDS = ("benchmark latency token throughput server model request "
      + "batch cache memory kernel prefill decode stream queue user answer prompt context window").split(" ");

  private final String name;
  private final List<List<ChatMessage>> conversations;
  private final int inputTokens;
  private final long seed;
  private final int first; // request i is this source's request first + i * step (a shard's slice)
  private final int step;
  private final Rows rows; // null unless the requests come from rows of their own (a trace)

  /**
   * Requests made row by row by a source of their own (a trace), which also sets each row's {@code max_tokens}
   * and keeps prompts apart by a namespace instead of the unique-prefix marker.
   */
  public interface Rows {
    /**
     * Row {@code index}'s request; {@code namespace} tells one batch of requests (a level, a warm-up round) from
     * another, so that prompts of different namespaces share no prefix while those of one namespace share
     * what the rows say they share.
     */
    CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace);

    /** The rows' own schedule (a trace's timestamps), or empty to send them as the level's load shape says. */
    default Optional<LoadRunner.Arrivals> arrivals() {
      return Optional.empty();
    }
  }

  private PromptSource(String name, List<List<ChatMessage>> conversations, int inputTokens, long seed) {
    this(name, conversations, inputTokens, seed, 0, 1);
  }

  private PromptSource(String name, List<List<ChatMessage>> conversations, int inputTokens, long seed, int first, int step) {
    this(name, conversations, inputTokens, seed, first, step, null);
  }

  private PromptSource(String name, List<List<ChatMessage>> conversations, int inputTokens, long seed, int first, int step,
      Rows rows) {
    this.rows = rows;
    this.name = name;
    this.conversations = conversations;
    this.inputTokens = inputTokens;
    this.seed = seed;
    this.first = first;
    this.step = step;
  }

  /**
   * The requests {@code first}, {@code first + step}, {@code first + 2 step}, ... of this source, under the
   * same name: shards of a level slice one prompt sequence, so together they send what one run would.
   */
  public PromptSource slice(int first, int step) {
    if (first < 0 || step < 1) throw new IllegalArgumentException("a slice needs first >= 0 and step >= 1, was " + first + ", " + step);
    return new PromptSource(name, conversations, inputTokens, seed, this.first + first * this.step, this.step * step, rows);
  }

  /** Requests made by {@code rows}, under {@code name} (e.g. {@code mooncake:trace.jsonl}). */
  public static PromptSource rows(String name, Rows rows) {
    return new PromptSource(name, List.of(), 0, 0, 0, 1, java.util.Objects.requireNonNull(rows, "rows"));
  }

  /** Whether requests come from {@link Rows}: they set their own {@code max_tokens} and keep prompts apart by namespace. */
  public boolean hasRows() {
    return rows != null;
  }

  /** Request {@code requestIndex} of a {@link Rows} source (or its slice), in {@code namespace}. */
  public CompletionRequest rowRequest(int requestIndex, boolean ignoreEos, Double temperature, long namespace) {
    if (rows == null) throw new IllegalStateException(name + " has no rows of its own");
    return rows.request(first + requestIndex * step, ignoreEos, temperature, namespace);
  }

  /** The schedule the rows carry (a trace's timestamps), if any. */
  public Optional<LoadRunner.Arrivals> arrivals() {
    if (rows == null) return Optional.empty();
    if (first == 0 && step == 1) return rows.arrivals();
    return rows.arrivals().map(a -> i -> a.offsetNanos(first + i * step));
  }

  /** A source known only by the name a result file recorded (e.g. {@code vllm:run=0.json}); it cannot make requests. */
  public static PromptSource recorded(String name) {
    return new PromptSource(name, List.of(), 0, 0);
  }

  public static PromptSource builtIn(long seed) {
    return new PromptSource("builtin", BUILT_IN.stream().map(p -> List.of(ChatMessage.user(p))).toList(), 0, seed);
  }

  /** One fixed prompt for every request. */
  public static PromptSource single(String prompt, long seed) {
    return new PromptSource("prompt", List.of(List.of(ChatMessage.user(prompt))), 0, seed);
  }

  /** Synthetic prompts of about {@code inputTokens} tokens (one word is about one token). */
  public static PromptSource synthetic(int inputTokens, long seed) {
    if (inputTokens < 1) throw new IllegalArgumentException("input tokens must be at least 1, was " + inputTokens);
    return new PromptSource("synthetic-" + inputTokens, List.of(), inputTokens, seed);
  }

  /**
   * Reads a JSONL file: each line {@code {"prompt": "..."}} or {@code {"messages": [{"role": ..., "content": ...}]}}.
   *
   * @throws IllegalArgumentException naming the file and line when a line is neither
   */
  public static PromptSource jsonl(Path file, long seed) {
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
    return new PromptSource("jsonl:" + file.getFileName(), List.copyOf(conversations), 0, seed);
  }

  public String name() {
    return name;
  }

  /** Request {@code requestIndex} of this source (or slice): the same index and seed always give the same request. */
  public CompletionRequest request(int requestIndex, int maxTokens, boolean ignoreEos, Double temperature) {
    if (rows != null) throw new IllegalStateException(name + " makes its requests through rowRequest");
    if (inputTokens == 0 && conversations.isEmpty()) throw new IllegalStateException(name + " is a recorded name only");
    int index = first + requestIndex * step;
    List<ChatMessage> messages;
    if (inputTokens > 0) {
      SplittableRandom random = new SplittableRandom(seed * 31 + index);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < inputTokens; i++) {
        if (i > 0) text.append(' ');
        text.append(SYNTHETIC_WORDS[random.nextInt(SYNTHETIC_WORDS.length)]);
      }
      messages = List.of(ChatMessage.user(text.toString()));
    } else {
      int offset = (int) Math.floorMod(seed, (long) conversations.size());
      messages = conversations.get((offset + index) % conversations.size());
    }
    CompletionRequest r = CompletionRequest.ofMessages(messages).withMaxTokens(maxTokens).withIgnoreEos(ignoreEos)
        .withSeed(seed + index);
    return temperature == null ? r : r.withTemperature(temperature);
  }

  /**
   * {@code r} with a marker unique to {@code salt} and {@code index} at the start of its first message
   * (where a chat template puts the user's text first) and of its last (a completions request's prompt).
   */
  public static CompletionRequest withUniquePrefix(CompletionRequest r, long salt, int index) {
    String marker = marker(salt, index) + " ";
    List<ChatMessage> messages = new ArrayList<>(r.messages());
    int last = messages.size() - 1;
    for (int i : last == 0 ? new int[] {0} : new int[] {0, last}) {
      ChatMessage m = messages.get(i);
      messages.set(i, new ChatMessage(m.role(), marker + m.content()));
    }
    return new CompletionRequest(messages, r.maxTokens(), r.temperature(), r.ignoreEos(), r.stream(), r.seed());
  }

  /** 8 hex digits: a 64-bit mix of the salt and the index (SplitMix64's finaliser), so neighbours share no digits. */
  static String marker(long salt, int index) {
    long z = salt + 0x9E3779B97F4A7C15L * (index + 1L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return String.format("%08x", z & 0xFFFF_FFFFL);
  }

  @Override
  public String toString() {
    return name;
  }
}
