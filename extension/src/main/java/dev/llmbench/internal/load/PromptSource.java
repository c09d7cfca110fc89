package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.workload.LoadedDataset;
import dev.llmbench.internal.workload.LengthDistribution;
import dev.llmbench.internal.workload.Row;
import dev.llmbench.internal.workload.TokenEstimate;
import dev.llmbench.result.InputAlignment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
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

  /** Output lengths are drawn from a stream of their own, so that they do not follow the input lengths. */
  private static final long OUTPUT_SALT = 0x6F75747075744CL;

  private static final String[] SYNTHETIC_WORDS = ("benchmark latency token throughput server model request "
      + "batch cache memory kernel prefill decode stream queue user answer prompt context window").split(" ");

  private final String name;
  private final List<List<ChatMessage>> conversations;
  private final int inputTokens;
  private final long seed;
  private final int first; // request i is this source's request first + i * step (a shard's slice)
  private final int step;
  private final Lengths lengths;
  private final Exact exact; // asked for exact lengths; null for "about N words"
  private final PromptGenerator generator; // makes each request's messages (aligned prompts, shared prefix); null otherwise
  private final RowSource rows; // null unless the requests come from rows of their own (a trace)

  /**
   * Where a request's lengths and extra fields come from beyond the prompt text: a dataset's rows, a
   * distribution of synthetic input lengths, a distribution of output lengths.
   *
   * @param dataset       the rows sent, or null
   * @param inputLengths  synthetic prompt lengths, or null
   * @param outputLengths {@code max_tokens} of each request, or null for the level's
   * @param rowLengths    a row's own output length wins where it has one
   */
  private record Lengths(LoadedDataset dataset, LengthDistribution inputLengths, LengthDistribution outputLengths,
      boolean rowLengths) {
    static final Lengths NONE = new Lengths(null, null, null, false);
  }

  private PromptSource(String name, List<List<ChatMessage>> conversations, int inputTokens, long seed) {
    this(name, conversations, inputTokens, seed, 0, 1, Lengths.NONE, null, null);
  }

  private PromptSource(String name, List<List<ChatMessage>> conversations, int inputTokens, long seed, int first, int step,
      Lengths lengths, Exact exact, PromptGenerator generator) {
    this(name, conversations, inputTokens, seed, first, step, lengths, exact, generator, null);
  }

  private PromptSource(String name, List<List<ChatMessage>> conversations, int inputTokens, long seed, int first, int step,
      Lengths lengths, Exact exact, PromptGenerator generator, RowSource rows) {
    this.rows = rows;
    this.name = name;
    this.conversations = conversations;
    this.inputTokens = inputTokens;
    this.seed = seed;
    this.first = first;
    this.step = step;
    this.lengths = lengths;
    this.exact = exact;
    this.generator = generator;
  }

  /** Synthetic prompts to be aligned to exactly their length in tokens before load ({@code @ExactInputTokens}). */
  public record Exact(Counting method, String tokenizer) {

    /** How prompt tokens are counted, as {@code @ExactInputTokens(method)} asks: the first that works, or one. */
    public enum Counting { AUTO, TOKENIZE_ROUTE, USAGE_PROBES, TOKENIZER_JSON }
  }

  /** These synthetic prompts, to be aligned to exactly {@code inputTokens} tokens before load. */
  public PromptSource exactly(Exact how) {
    if (inputTokens < 1 && rows == null) {
      throw new IllegalArgumentException("exact input lengths need synthetic prompts (inputTokens) or rows of their own (a trace)");
    }
    return new PromptSource(name, conversations, inputTokens, seed, first, step, lengths, how, generator, rows);
  }

  /** The rows this source's requests come from (a trace), if they do. */
  public Optional<RowSource> rowSource() {
    return Optional.ofNullable(rows);
  }

  /** This source with its requests made by {@code aligned} instead (the same rows, aligned before load). */
  public PromptSource withRows(RowSource aligned) {
    if (rows == null) throw new IllegalStateException(name + " has no rows of its own");
    return new PromptSource(name, conversations, inputTokens, seed, first, step, lengths, exact, generator,
        java.util.Objects.requireNonNull(aligned, "aligned"));
  }

  /** How this source's prompts were aligned to their exact length, by its generator or its rows; empty when they were not. */
  public Optional<InputAlignment> alignment() {
    if (rows != null) return rows.alignment();
    return generator().flatMap(PromptGenerator::alignment);
  }

  /** Asked for exact lengths, and how to count; empty for "about N words". */
  public Optional<Exact> exact() {
    return Optional.ofNullable(exact);
  }

  /** This source with its requests made by {@code g} (e.g. once aligned), same name, seed and slice. */
  public PromptSource generatedBy(PromptGenerator g) {
    return new PromptSource(name, conversations, inputTokens, seed, first, step, lengths, exact, g);
  }

  /** A source whose every request {@code g} makes, e.g. the shared-prefix workload. */
  public static PromptSource generated(String name, int inputTokens, long seed, PromptGenerator g) {
    return new PromptSource(name, List.of(), inputTokens, seed, 0, 1, Lengths.NONE, null, g);
  }

  public Optional<PromptGenerator> generator() {
    return Optional.ofNullable(generator);
  }

  public long seed() {
    return seed;
  }

  /** The synthetic or generated prompts' length in tokens (about, unless aligned); 0 for a prompt set. */
  public int inputTokens() {
    return inputTokens;
  }

  /**
   * The requests {@code first}, {@code first + step}, {@code first + 2 step}, ... of this source, under the
   * same name: shards of a level slice one prompt sequence, so together they send what one run would.
   */
  public PromptSource slice(int first, int step) {
    if (first < 0 || step < 1) throw new IllegalArgumentException("a slice needs first >= 0 and step >= 1, was " + first + ", " + step);
    return new PromptSource(name, conversations, inputTokens, seed, this.first + first * this.step, this.step * step, lengths,
        exact, generator, rows);
  }

  /** Requests made by {@code rows}, under {@code name} (e.g. {@code mooncake:trace.jsonl}). */
  public static PromptSource rows(String name, RowSource rows) {
    return new PromptSource(name, List.of(), 0, 0, 0, 1, Lengths.NONE, null, null, java.util.Objects.requireNonNull(rows, "rows"));
  }

  /** Whether this source's rows ask for whole replies, each known by its request index ({@link RowSource#keepsReplies()}). */
  public boolean keepsReplies() {
    return rows != null && rows.keepsReplies();
  }

  /** The row request {@code requestIndex} of this source (or its slice) sends: {@code first + requestIndex * step}. */
  public int rowIndex(int requestIndex) {
    return first + requestIndex * step;
  }

  /** The sessions a level sends whole, when its rows are conversations ({@link RowSource#sessions()}). */
  public Optional<SessionSource> sessions() {
    return rows == null ? Optional.empty() : rows.sessions();
  }

  /** Whether a level sending these prompts takes {@code beside}: its rows' source says; any other prompts take all. */
  public boolean takes(WorkloadSource.Beside beside) {
    return rows == null || rows.takes(beside);
  }

  /** What the rows' source advises instead of {@code setting}, which it does not take. */
  public Optional<String> instead(AdviceSetting setting) {
    return rows == null ? Optional.empty() : rows.instead(setting);
  }

  /** What every level sending these prompts says of them: its dataset's and its rows' warnings. */
  public List<String> warnings() {
    List<String> out = new java.util.ArrayList<>();
    dataset().ifPresent(d -> out.addAll(d.warnings()));
    if (rows != null) out.addAll(rows.warnings());
    return out;
  }

  /** What a level that sent requests {@code sent} (by index) says of its prompts: as {@link #warnings()}, rows by the level's. */
  public List<String> warnings(java.util.BitSet sent) {
    List<String> out = new java.util.ArrayList<>();
    dataset().ifPresent(d -> out.addAll(d.warnings()));
    if (rows != null) out.addAll(rows.warnings(sent));
    return out;
  }

  /** Whether requests come from {@link RowSource}: they set their own {@code max_tokens} and keep prompts apart by namespace. */
  public boolean hasRows() {
    return rows != null;
  }

  /** Request {@code requestIndex} of a {@link RowSource} source (or its slice), in {@code namespace}. */
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

  /** Synthetic prompts whose lengths are drawn from {@code lengths}, per request, from the seed. */
  public static PromptSource synthetic(LengthDistribution lengths, long seed) {
    return new PromptSource("synthetic-" + lengths.spec(), List.of(), 0, seed, 0, 1, new Lengths(null, lengths, null, false),
        null, null);
  }

  /**
   * The rows of a dataset, in their order, from the first; with {@code rowLengths} a row's own output length
   * is its request's {@code max_tokens}.
   */
  public static PromptSource dataset(LoadedDataset dataset, boolean rowLengths, long seed) {
    return new PromptSource(dataset.name(), dataset.rows().stream().map(Row::messages).toList(), 0, seed, 0, 1,
        new Lengths(dataset, null, null, rowLengths), null, null);
  }

  /** This source with each request's {@code max_tokens} drawn from {@code outputLengths} (a row's own length still wins). */
  public PromptSource withOutputLengths(LengthDistribution outputLengths) {
    return new PromptSource(name, conversations, inputTokens, seed, first, step,
        new Lengths(lengths.dataset(), lengths.inputLengths(), outputLengths, lengths.rowLengths()), exact, generator);
  }

  /** The dataset this source sends the rows of, if it is one. */
  public Optional<LoadedDataset> dataset() {
    return Optional.ofNullable(lengths.dataset());
  }

  /** The distribution of synthetic input lengths, if this source draws them. */
  public Optional<LengthDistribution> inputLengths() {
    return Optional.ofNullable(lengths.inputLengths());
  }

  /** The distribution of output lengths, if this source draws them. */
  public Optional<LengthDistribution> outputLengths() {
    return Optional.ofNullable(lengths.outputLengths());
  }

  /** Whether a dataset row's own output length is its request's {@code max_tokens}. */
  public boolean usesRowLengths() {
    return lengths.rowLengths() && lengths.dataset() != null;
  }

  /** The 1-based row of the dataset that request {@code requestIndex} sends, if this source is a dataset. */
  public OptionalInt row(int requestIndex) {
    LoadedDataset d = lengths.dataset();
    return d == null ? OptionalInt.empty() : OptionalInt.of(d.rows().get(position(requestIndex)).number());
  }

  /**
   * The input length request {@code requestIndex} asks for, in tokens: a synthetic prompt's, a dataset row's
   * (as the file gives it, or estimated from the text), a row's own ({@link RowSource#inputTokens}, 0 when it has
   * none), else estimated from the text at 4 characters a token.
   */
  public int requestedInputTokens(int requestIndex) {
    int index = first + requestIndex * step;
    if (rows != null) return rows.inputTokens(index).orElse(0);
    if (inputTokens > 0) return inputTokens;
    if (lengths.inputLengths() != null) return lengths.inputLengths().draw(seed, index);
    if (lengths.dataset() != null) return lengths.dataset().rows().get(position(requestIndex)).inputTokens();
    return TokenEstimate.of(conversations.get(position(requestIndex)));
  }

  /** The {@code max_tokens} request {@code requestIndex} sends when the level's is {@code maxTokens}. */
  public int requestedOutputTokens(int requestIndex, int maxTokens) {
    int index = first + requestIndex * step;
    if (lengths.rowLengths() && lengths.dataset() != null) {
      OptionalInt own = lengths.dataset().rows().get(position(requestIndex)).outputTokens();
      if (own.isPresent()) return own.getAsInt();
    }
    if (lengths.outputLengths() != null) return lengths.outputLengths().draw(seed ^ OUTPUT_SALT, index);
    return maxTokens;
  }

  /** Where request {@code requestIndex} is in the prompt list; a dataset starts at its first row, other sets where the seed says. */
  private int position(int requestIndex) {
    int index = first + requestIndex * step;
    int offset = lengths.dataset() != null ? 0 : (int) Math.floorMod(seed, (long) conversations.size());
    return (offset + index) % conversations.size();
  }

  /**
   * Reads a JSONL file: each line {@code {"prompt": "..."}} or {@code {"messages": [{"role": ..., "content": ...}]}}.
   *
   * @throws IllegalArgumentException naming the file and line when a line is neither
   */
  public static PromptSource jsonl(Path file, long seed) {
    return new PromptSource("jsonl:" + file.getFileName(), PromptFiles.read(file), 0, seed);
  }

  public String name() {
    return name;
  }

  /** Whether this is only a name a result file recorded, which cannot make requests. */
  public boolean isRecorded() {
    return inputTokens == 0 && lengths.inputLengths() == null && conversations.isEmpty() && generator == null;
  }

  /** Request {@code requestIndex} of this source (or slice): the same index and seed always give the same request. */
  public CompletionRequest request(int requestIndex, int maxTokens, boolean ignoreEos, Double temperature) {
    return request(requestIndex, maxTokens, true, ignoreEos, temperature);
  }

  /**
   * Request {@code requestIndex}; with {@code ownLengths}, its {@code max_tokens} is the row's or the output
   * distribution's where this source has one ({@link #requestedOutputTokens}), else {@code maxTokens} (a
   * warm-up that asks for other lengths passes false).
   */
  public CompletionRequest request(int requestIndex, int maxTokens, boolean ownLengths, boolean ignoreEos, Double temperature) {
    if (rows != null) throw new IllegalStateException(name + " makes its requests through rowRequest");
    boolean synthetic = inputTokens > 0 || lengths.inputLengths() != null;
    if (!synthetic && conversations.isEmpty() && generator == null) {
      throw new IllegalStateException(name + " is a recorded name only");
    }
    if (exact != null && generator == null) throw new IllegalStateException(name + " is not aligned yet");
    int index = first + requestIndex * step;
    List<ChatMessage> messages;
    Row row = null;
    if (generator != null) {
      messages = generator.messages(index);
    } else if (synthetic) {
      int length = inputTokens > 0 ? inputTokens : lengths.inputLengths().draw(seed, index);
      SplittableRandom random = new SplittableRandom(seed * 31 + index);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < length; i++) {
        if (i > 0) text.append(' ');
        text.append(SYNTHETIC_WORDS[random.nextInt(SYNTHETIC_WORDS.length)]);
      }
      messages = List.of(ChatMessage.user(text.toString()));
    } else {
      int at = position(requestIndex);
      messages = conversations.get(at);
      if (lengths.dataset() != null) row = lengths.dataset().rows().get(at);
    }
    int max = ownLengths ? requestedOutputTokens(requestIndex, maxTokens) : maxTokens;
    CompletionRequest r = CompletionRequest.ofMessages(messages).withMaxTokens(max).withIgnoreEos(ignoreEos)
        .withSeed(seed + index);
    Double t = row != null && row.temperature() != null ? row.temperature() : temperature;
    if (row != null) {
      for (Map.Entry<String, String> field : row.bodyFields().entrySet()) r = r.withBodyField(field.getKey(), field.getValue());
    }
    return t == null ? r : r.withTemperature(t);
  }

  /**
   * {@code r} with this source's unique marker: where {@link Markers#withUniquePrefix} puts it, or, for generated prompts,
   * at the start of the message their generator names; aligned prompts get {@link #digits} (a token count every
   * current tokenizer keeps constant) instead of hex.
   */
  public CompletionRequest withMarker(CompletionRequest r, long salt, int index) {
    if (generator == null && exact == null) return Markers.withUniquePrefix(r, salt, index);
    String marker = (exact != null ? Markers.digits(salt, index) : Markers.marker(salt, index)) + " ";
    List<ChatMessage> messages = new ArrayList<>(r.messages());
    int at = Math.min(generator == null ? 0 : generator.markerMessage(), messages.size() - 1);
    ChatMessage m = messages.get(at);
    messages.set(at, new ChatMessage(m.role(), marker + m.content()));
    return new CompletionRequest(messages, r.maxTokens(), r.temperature(), r.ignoreEos(), r.stream(), r.seed(), r.bodyFields());
  }

  @Override
  public String toString() {
    return name;
  }
}
