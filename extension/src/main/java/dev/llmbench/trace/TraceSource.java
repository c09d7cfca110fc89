package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.tokens.ExactRows;
import dev.llmbench.internal.tokens.ExactText;
import dev.llmbench.internal.tokens.TokenCountException;
import dev.llmbench.result.InputAlignment;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A checked trace as a level's requests: row i is request i, its prompt the text of its blocks
 * ({@link BlockText}) joined by spaces, {@code max_tokens} its {@code output_length}; with a time scale, also
 * its schedule: row i is due (timestamp_i - timestamp_0) / scale after the level's start. Rows are streamed
 * from the file as they are sent (a level asks for them in order), never held all at once. With
 * {@code @ExactInputTokens} the level aligns them before load ({@link #aligned}): then every full block is
 * exactly its size in tokens on the server and every row exactly its {@code input_length}, template included.
 */
@API(status = INTERNAL)
public final class TraceSource implements ExactRows {

  /** Blocks whose text is kept, so that a block shared by many rows is written once. */
  private static final int CACHED_BLOCKS = 4096;
  /** Slots of the table of blocks seen once; a power of two. */
  private static final int SEEN_SLOTS = 1 << 16;
  /** The longest prompt whose builder is kept for the next row. */
  private static final int KEPT_PROMPT_CHARS = 1 << 20;

  private final MooncakeTrace trace;
  private final double timeScale; // 0: no schedule of its own
  private final ExactText exact; // once aligned (@ExactInputTokens): blocks of exactly their tokens; null: words as tokens
  private final Map<Long, String> blocks = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
      return size() > CACHED_BLOCKS;
    }
  };
  /**
   * Blocks seen once, by key, direct-mapped (a collision forgets the older): a block's text is kept only once it
   * comes again, so that a trace whose blocks are mostly a row's own (Mooncake's: all but the first few) neither
   * copies each block twice nor keeps thousands of texts alive for the collector to copy.
   */
  private final long[] seenOnce = new long[SEEN_SLOTS];
  /** The prompt being written, kept between rows (its bytes are copied out once): one array per prompt, not two. */
  private final StringBuilder promptText = new StringBuilder();
  /**
   * Once aligned: the rows whose template cost reaches into a shared block (#36 item 9), in row order, each with the
   * tokens it takes off its earlier blocks and its line; and which rows share blocks at all. A level reports those it sent.
   */
  private ShortRows shortRows = ShortRows.NONE;
  private MooncakeTrace.Cursor requests;
  private int nextRequest;
  /** Rows the schedule has read and not yet sent, by index: each row is parsed once on the sending thread. */
  private final Map<Integer, TraceRow> scheduled = new java.util.HashMap<>();

  private TraceSource(MooncakeTrace trace, double timeScale, ExactText exact) {
    this.trace = trace;
    this.timeScale = timeScale;
    this.exact = exact;
  }

  /**
   * Reads and checks {@code file} whole, before anything is sent.
   *
   * @throws TraceFormatException naming file, line and field of the first bad row
   */
  public static MooncakeTrace check(Path file, int blockSize) {
    return MooncakeTrace.read(file, blockSize);
  }

  /** The trace's rows in order, sent as the level's load shape says (a concurrency or a rate). */
  public static PromptSource rows(MooncakeTrace trace) {
    return PromptSource.rows(name(trace, 0), new TraceSource(trace, 0, null));
  }

  /** The trace's rows at its own timestamps, {@code timeScale} times faster (10: ten times as fast). */
  public static PromptSource timed(MooncakeTrace trace, double timeScale) {
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException("a time scale must be a positive number (10 replays ten times faster), was " + timeScale);
    }
    return PromptSource.rows(name(trace, timeScale), new TraceSource(trace, timeScale, null));
  }

  /** {@code mooncake:trace.jsonl (200 rows, 512-token blocks, x10)}: which file, how many rows, how it is replayed. */
  static String name(MooncakeTrace t, double timeScale) {
    return "mooncake:" + t.file().getFileName() + " (" + t.rows() + " rows, " + t.blockSize() + "-token blocks"
        + (timeScale > 0 ? ", x" + Formats.number(timeScale) : "") + ")";
  }

  /** The mean arrival rate of the trace replayed at {@code timeScale}, in requests per second. */
  public static double meanRate(MooncakeTrace t, double timeScale) {
    // A trace whose rows all share one timestamp arrives at once: a rate of one span of 1 ms stands for it.
    double spanMs = Math.max(t.spanMs(), 1) / timeScale;
    return t.rows() / (spanMs / 1000.0);
  }

  @Override
  public synchronized CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace) {
    TraceRow row = scheduled.remove(index);
    if (row == null) row = row(index);
    CompletionRequest r = CompletionRequest.ofMessages(List.of(ChatMessage.user(prompt(row, namespace, trace.blockSize()))))
        .withMaxTokens(row.outputLength()).withIgnoreEos(ignoreEos).withSeed((long) index);
    return temperature == null ? r : r.withTemperature(temperature);
  }

  /** Row {@code index}'s prompt: block k is {@code hash_ids[k]}'s text; a row without ids has blocks of its own. */
  synchronized String prompt(TraceRow row, long namespace, int blockSize) {
    if (exact != null) return exactPrompt(row, namespace, blockSize);
    promptText.setLength(0);
    int blockCount = (row.inputLength() + blockSize - 1) / blockSize;
    // Blocks of a row without hash_ids: ids in a namespace of that row, so no other row shares them.
    long ownNamespace = BlockText.mix(namespace ^ BlockText.mix(0x7F4A7C15L + row.line()));
    for (int b = 0; b < blockCount; b++) {
      int words = Math.min(blockSize, row.inputLength() - b * blockSize);
      if (b > 0) promptText.append(' ');
      boolean shared = row.hashIds().length > 0;
      long ns = shared ? namespace : ownNamespace;
      long id = shared ? row.hashIds()[b] : b;
      String kept = words == blockSize ? keptText(BlockText.mix(ns ^ BlockText.mix(id)) ^ blockSize) : null;
      if (kept != null) {
        promptText.append(kept);
      } else {
        int from = promptText.length();
        BlockText.append(promptText, ns, id, words);
        if (words == blockSize) keep(BlockText.mix(ns ^ BlockText.mix(id)) ^ blockSize, promptText, from);
      }
    }
    return finish();
  }

  /**
   * An aligned row's prompt: the lead word, then its blocks, each {@link ExactText#block} of its seed, so that
   * equal ids in one namespace are byte-equal and every full block is exactly {@code blockSize} tokens on the
   * server. What the server adds (template, lead word: {@link ExactText#overhead}) comes off the end of the last
   * block, so that the whole prompt is exactly {@code input_length}; a shortened block is the start of the full one
   * as far as its words fit (a word of several tokens is not split), then other words that fit.
   */
  private String exactPrompt(TraceRow row, long namespace, int blockSize) {
    promptText.setLength(0);
    promptText.append(exact.lead());
    int blockCount = (row.inputLength() + blockSize - 1) / blockSize;
    long ownNamespace = BlockText.mix(namespace ^ BlockText.mix(0x7F4A7C15L + row.line()));
    boolean shared = row.hashIds().length > 0;
    int left = row.inputLength() - exact.overhead();
    for (int b = 0; b < blockCount && left > 0; b++) {
      int tokens = Math.min(blockSize, left);
      long ns = shared ? namespace : ownNamespace;
      long id = shared ? row.hashIds()[b] : b;
      long seed = BlockText.mix(ns ^ BlockText.mix(id));
      String kept = tokens == blockSize ? keptText(seed ^ blockSize) : null;
      if (kept != null) {
        promptText.append(kept);
      } else {
        int from = promptText.length();
        exact.appendBlock(promptText, seed, tokens);
        if (tokens == blockSize) keep(seed ^ blockSize, promptText, from);
      }
      left -= tokens;
    }
    return finish();
  }

  /** The prompt just written; the builder is let go after a rare long one, so that it is not kept for good. */
  private String finish() {
    String prompt = promptText.toString();
    if (promptText.capacity() > KEPT_PROMPT_CHARS) {
      promptText.setLength(0);
      promptText.trimToSize();
    }
    return prompt;
  }

  /** The kept text of full block {@code key}, or null when it has not been kept (yet). */
  private String keptText(long key) {
    return blocks.get(key);
  }

  /** Block {@code key} was just written at {@code from} in {@code text}: kept the second time it is written. */
  private void keep(long key, StringBuilder text, int from) {
    int slot = (int) (BlockText.mix(key) & (SEEN_SLOTS - 1));
    if (seenOnce[slot] == key) {
      blocks.put(key, text.substring(from));
    } else {
      seenOnce[slot] = key;
    }
  }

  /** The rows' mean {@code input_length}, at least 64 tokens: what the sample prompts checked while aligning cost. */
  @Override
  public int sampleTokens() {
    return (int) Math.max(64, Math.round((double) trace.inputTokens() / trace.rows()));
  }

  /**
   * This trace's rows with blocks made of {@code text}'s words; every row is checked first (one streamed pass),
   * so that a row too short for the server's template fails before any load.
   */
  @Override
  public TraceSource aligned(ExactText text) {
    int shortest = text.overhead() + 1;
    int blockSize = trace.blockSize();
    ShortRows.Builder found = new ShortRows.Builder();
    try (MooncakeTrace.Cursor c = trace.cursor()) {
      int index = 0;
      for (TraceRow r = c.next(); r != null; r = c.next(), index++) {
        // What the server adds comes off the end of the row's last block; when that block is shorter, the rest comes off
        // the block before it, a full block the row shares by id with rows that send it whole (#36 item 9).
        int blockCount = (r.inputLength() + blockSize - 1) / blockSize;
        int last = r.inputLength() - (blockCount - 1) * blockSize;
        if (r.hashIds().length > 0) found.sharing.set(index);
        if (r.hashIds().length > 1 && blockCount > 1 && last < text.overhead() && r.inputLength() >= shortest) {
          found.add(index, Math.min(text.overhead() - last, r.inputLength() - last - 1), r.line());
        }
        if (r.inputLength() < shortest) {
          throw new TokenCountException(trace.file() + " line " + r.line() + ", field \"input_length\": " + r.inputLength()
              + " is below what the server bills for the shortest aligned prompt: " + shortest + " tokens (its chat "
              + "template and one word, counted by " + text.method() + "); with @ExactInputTokens every row needs an "
              + "input_length of at least " + shortest + ", or drop @ExactInputTokens to send rows of about their length");
        }
      }
    }
    TraceSource aligned = new TraceSource(trace, timeScale, text);
    aligned.shortRows = found.build(text.overhead() + " tokens: its chat template and the lead word, counted by " + text.method());
    return aligned;
  }

  /** What a level that sent every row would say: the whole file's short rows. */
  @Override
  public List<String> warnings() {
    java.util.BitSet all = new java.util.BitSet();
    all.set(0, trace.rows());
    return warnings(all);
  }

  /**
   * The rows this level sent ({@code sent}, by index) whose last block is shorter than what the server adds: their count
   * among the rows it sent that share blocks, the tokens they took off a shared block, and their lines (the first 5);
   * nothing when it sent none.
   */
  @Override
  public List<String> warnings(java.util.BitSet sent) {
    ShortRows s = shortRows;
    int count = 0;
    int least = Integer.MAX_VALUE;
    int most = 0;
    List<Integer> lines = new java.util.ArrayList<>();
    for (int i = 0; i < s.index.length; i++) {
      if (!sent.get(s.index[i])) continue;
      count++;
      least = Math.min(least, s.borrowed[i]);
      most = Math.max(most, s.borrowed[i]);
      if (lines.size() < 5) lines.add(s.line[i]);
    }
    if (count == 0) return List.of();
    java.util.BitSet sharing = (java.util.BitSet) s.sharing.clone();
    sharing.and(sent);
    return List.of(count + " of the " + sharing.cardinality() + " rows of " + trace.file().getFileName() + " this level sent "
        + "that share blocks have a last block shorter than what the server adds (" + s.adds + "): each takes the rest, "
        + (least == most ? least : least + "-" + most) + " tokens, off the end of its earlier full blocks, so it shares that "
        + "many tokens fewer with the rows that send those blocks whole (lines " + lines.stream().map(String::valueOf)
        .collect(java.util.stream.Collectors.joining(", ")) + (count > lines.size() ? ", ..." : "") + ")");
  }

  /** Rows whose last block is shorter than what the server adds: row index, tokens taken, line; in row order. */
  private record ShortRows(int[] index, int[] borrowed, int[] line, java.util.BitSet sharing, String adds) {
    static final ShortRows NONE = new ShortRows(new int[0], new int[0], new int[0], new java.util.BitSet(), "");

    /** Filled in one pass over the file. */
    static final class Builder {
      final java.util.BitSet sharing = new java.util.BitSet();
      private int[] index = new int[8];
      private int[] borrowed = new int[8];
      private int[] line = new int[8];
      private int n;

      void add(int row, int tokens, int at) {
        if (n == index.length) {
          index = java.util.Arrays.copyOf(index, 2 * n);
          borrowed = java.util.Arrays.copyOf(borrowed, 2 * n);
          line = java.util.Arrays.copyOf(line, 2 * n);
        }
        index[n] = row;
        borrowed[n] = tokens;
        line[n++] = at;
      }

      ShortRows build(String adds) {
        return new ShortRows(java.util.Arrays.copyOf(index, n), java.util.Arrays.copyOf(borrowed, n),
            java.util.Arrays.copyOf(line, n), sharing, adds);
      }
    }
  }

  /** Once aligned: by what, what the server adds, and how far the checked samples were off; each row's target is its own. */
  @Override
  public Optional<InputAlignment> alignment() {
    if (exact == null) return Optional.empty();
    return Optional.of(new InputAlignment(0, exact.method(), exact.overhead(), exact.plannedDeviation(), OptionalInt.empty(), 0));
  }

  /** The trace these rows come from. */
  public MooncakeTrace trace() {
    return trace;
  }

  /** The time scale the rows are replayed at, or 0 when they go under a concurrency or a rate. */
  public double timeScale() {
    return timeScale;
  }

  /** Row {@code index} (from 0), streamed: ask in ascending order, as a level's report does, to read the file once. */
  public synchronized TraceRow rowAt(int index) {
    if (index < 0 || index >= trace.rows()) {
      throw new IndexOutOfBoundsException("row " + index + " of a trace of " + trace.rows() + " rows");
    }
    return row(index);
  }

  @Override
  public synchronized OptionalInt inputTokens(int index) {
    if (index >= trace.rows()) return OptionalInt.empty();
    return OptionalInt.of(row(index).inputLength());
  }

  private TraceRow row(int index) {
    if (index >= trace.rows()) {
      throw new IllegalStateException("request " + index + " asked of a trace of " + trace.rows() + " rows");
    }
    if (requests == null || index < nextRequest) { // a new batch (the level after its warm-up) starts from row 0 again
      if (requests != null) requests.close();
      requests = trace.cursor();
      nextRequest = 0;
    }
    TraceRow r;
    do {
      r = requests.next();
      if (r == null) throw new IllegalStateException(trace.file() + " changed while it was replayed: row " + index + " is gone");
    } while (nextRequest++ < index);
    return r;
  }

  @Override
  public Optional<LoadRunner.Arrivals> arrivals() {
    if (timeScale == 0) return Optional.empty();
    synchronized (this) {
      scheduled.clear();
    }
    return Optional.of(new Schedule());
  }

  /** Row i's due time after the level's start, streamed from a cursor of its own. */
  private final class Schedule implements LoadRunner.Arrivals {
    private MooncakeTrace.Cursor cursor;
    private int next;

    @Override
    public synchronized long offsetNanos(int index) {
      if (index >= trace.rows()) {
        if (cursor != null) cursor.close();
        return -1;
      }
      if (cursor == null || index < next) {
        if (cursor != null) cursor.close();
        cursor = trace.cursor();
        next = 0;
      }
      TraceRow r;
      do {
        r = cursor.next();
        if (r == null) return -1;
      } while (next++ < index);
      synchronized (TraceSource.this) {
        scheduled.put(index, r);
      }
      return Math.round((r.timestampMs() - trace.firstMs()) * 1e6 / timeScale);
    }
  }
}
