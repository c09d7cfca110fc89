package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A Mooncake-style trace file, checked whole in one streamed pass (nothing but its totals kept) before any
 * request is sent, and read again row by row while a level sends it. Each line is one request:
 * <pre>{"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]}</pre>
 * {@code timestamp} in milliseconds, never going back; {@code input_length} and {@code output_length} in
 * tokens, at least 1; {@code hash_ids} (optional) one integer per block of {@code blockSize} tokens, so
 * ⌈input_length / blockSize⌉ of them; {@code session_id} optional. Blank lines are skipped; other fields
 * are ignored, as AIPerf and guidellm ignore them.
 *
 * @param file         the trace
 * @param blockSize    tokens per hash id (Mooncake's traces: 512)
 * @param rows         its rows
 * @param firstMs      the first row's timestamp
 * @param lastMs       the last row's timestamp
 * @param maxOutput    the largest {@code output_length}
 * @param inputTokens  the sum of {@code input_length}
 * @param outputTokens the sum of {@code output_length}
 */
@API(status = INTERNAL)
public record MooncakeTrace(Path file, int blockSize, int rows, double firstMs, double lastMs, int maxOutput, long inputTokens,
    long outputTokens) {

  /** Mooncake's block: 512 tokens per hash id (AIPerf {@code --isl-block-size}, guidellm {@code hash_id_block_size}). */
  public static final int DEFAULT_BLOCK_SIZE = 512;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROW_EXAMPLE =
      "{\"timestamp\": 0, \"input_length\": 655, \"output_length\": 52, \"hash_ids\": [0, 1]}";

  /**
   * Reads and checks every row of {@code file}, keeping only its totals.
   *
   * @param file      the trace
   * @param blockSize tokens per hash block
   * @return the trace's totals
   * @throws TraceFormatException naming the file, line and field of the first row that is not a trace row,
   *                              and what would be accepted
   */
  public static MooncakeTrace read(Path file, int blockSize) {
    if (blockSize < 1) throw new IllegalArgumentException("a trace's block size must be at least 1 token, was " + blockSize);
    int rows = 0;
    double first = 0;
    double last = 0;
    int maxOutput = 0;
    long input = 0;
    long output = 0;
    try (Cursor c = new Cursor(file, blockSize)) {
      for (TraceRow r = c.next(); r != null; r = c.next()) {
        if (rows == 0) first = r.timestampMs();
        last = r.timestampMs();
        rows++;
        maxOutput = Math.max(maxOutput, r.outputLength());
        input += r.inputLength();
        output += r.outputLength();
      }
    }
    if (rows == 0) {
      throw new TraceFormatException(file + " holds no trace rows (the file is empty or blank); expected one JSON object "
          + "per line, e.g. " + ROW_EXAMPLE);
    }
    return new MooncakeTrace(file, blockSize, rows, first, last, maxOutput, input, output);
  }

  /** {@return the time from the first row to the last, in milliseconds} */
  public double spanMs() {
    return lastMs - firstMs;
  }

  /** {@return the rows, streamed from the file again} */
  public Cursor cursor() {
    return new Cursor(file, blockSize);
  }

  /** Reads a trace's rows one at a time, checking each as it goes. */
  public static final class Cursor implements AutoCloseable {
    private final Path file;
    private final int blockSize;
    private final BufferedReader in;
    private int line;
    private double previousMs = Double.NEGATIVE_INFINITY;
    private int previousLine;

    Cursor(Path file, int blockSize) {
      this.file = file;
      this.blockSize = blockSize;
      try {
        this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new TraceFormatException("cannot read trace file " + file.toAbsolutePath() + ": " + e, e);
      }
    }

    /** {@return the next row, or null at the end of the file} */
    public TraceRow next() {
      String text;
      try {
        do {
          text = in.readLine();
          line++;
        } while (text != null && text.isBlank());
      } catch (IOException e) {
        throw new TraceFormatException(file + " line " + line + ": cannot be read: " + e, e);
      }
      if (text == null) return null;
      TraceRow r = parse(text);
      if (r.timestampMs() < previousMs) {
        throw field("timestamp", number(r.timestampMs()) + " is before line " + previousLine + "'s " + number(previousMs)
            + ": timestamps must not go backwards", "rows in time order (sort the file by timestamp)");
      }
      previousMs = r.timestampMs();
      previousLine = line;
      return r;
    }

    private TraceRow parse(String text) {
      JsonNode node;
      if (line == 1 && text.strip().startsWith("[")) {
        // A whole-file JSON array (a ShareGPT file, a JSON export) is another format, whatever its first line parses to.
        throw new TraceFormatException(file + " line 1: starts a JSON array, so it is not a trace of JSON Lines (a "
            + "ShareGPT file is read by @Dataset(format = SHAREGPT)); expected one JSON object per line, e.g. " + ROW_EXAMPLE);
      }
      try {
        node = JSON.readTree(text);
      } catch (JsonProcessingException e) {
        // Jackson's own message ends with its internal source position; file and line say more.
        throw new TraceFormatException(file + " line " + line + ": not JSON (" + e.getOriginalMessage() + "); expected one "
            + "JSON object per line, e.g. " + ROW_EXAMPLE, e);
      }
      if (node == null || !node.isObject()) {
        throw new TraceFormatException(file + " line " + line + ": is " + (node == null ? "empty" : "a JSON " + node.getNodeType()
            .name().toLowerCase(java.util.Locale.ROOT)) + ", not an object; expected e.g. " + ROW_EXAMPLE);
      }
      JsonNode ts = required(node, "timestamp");
      if (!ts.isNumber() || !Double.isFinite(ts.asDouble()) || ts.asDouble() < 0) {
        throw field("timestamp", show(ts) + " is not a time", "milliseconds as a number, 0 or more, e.g. \"timestamp\": 27482");
      }
      int input = length(node, "input_length", "\"input_length\": 655");
      int output = length(node, "output_length", "\"output_length\": 52");
      long[] ids = new long[0];
      JsonNode h = node.get("hash_ids");
      if (h != null && !h.isNull()) {
        if (!h.isArray()) throw field("hash_ids", show(h) + " is not a list", "a list of integers, e.g. \"hash_ids\": [0, 1, 2]");
        ids = new long[h.size()];
        for (int i = 0; i < ids.length; i++) {
          JsonNode id = h.get(i);
          if (!id.isIntegralNumber() || !id.canConvertToLong()) {
            throw field("hash_ids", "element " + i + " (" + show(id) + ") is not an integer",
                "a list of integers naming blocks of " + blockSize + " tokens, e.g. \"hash_ids\": [0, 1, 2]");
          }
          ids[i] = id.asLong();
        }
        int blocks = (int) ((input + (long) blockSize - 1) / blockSize);
        if (ids.length != blocks) {
          throw field("hash_ids", ids.length + " ids for input_length " + input + " in blocks of " + blockSize + " tokens",
              blocks + " ids (one per block, the last one partial), or the trace's own block size in @Trace(blockSize)");
        }
      }
      JsonNode s = node.get("session_id");
      String session = s == null || s.isNull() ? null : s.asText();
      return new TraceRow(line, ts.asDouble(), input, output, ids, session);
    }

    private JsonNode required(JsonNode node, String name) {
      JsonNode v = node.get(name);
      if (v == null || v.isNull()) {
        String looks = node.has("messages") ? " (the row has \"messages\": it looks like OpenAI chat JSONL, read by "
            + "@Dataset(format = OPENAI_CHAT))" : node.has("prompt") ? " (the row has \"prompt\": it looks like vLLM custom "
            + "JSONL, read by @Dataset(format = VLLM_CUSTOM))" : node.has("conversations") ? " (the row has "
            + "\"conversations\": it looks like ShareGPT, read by @Dataset(format = SHAREGPT))" : "";
        throw new TraceFormatException(file + " line " + line + ", field \"" + name + "\": missing" + looks + "; every row "
            + "needs timestamp, input_length and output_length, e.g. " + ROW_EXAMPLE);
      }
      return v;
    }

    private int length(JsonNode node, String name, String example) {
      JsonNode v = required(node, name);
      if (!v.isIntegralNumber() || !v.canConvertToInt()) {
        throw field(name, show(v) + " is not a whole number of tokens", "an integer, at least 1, e.g. " + example);
      }
      if (v.asInt() < 1) {
        throw field(name, v.asInt() + (v.asInt() < 0 ? " is negative" : " is zero"), "an integer, at least 1, e.g. " + example);
      }
      return v.asInt();
    }

    private TraceFormatException field(String name, String problem, String accepted) {
      return new TraceFormatException(file + " line " + line + ", field \"" + name + "\": " + problem + "; expected " + accepted);
    }

    private static String show(JsonNode v) {
      String s = v.toString();
      return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    private static String number(double ms) {
      return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }

    @Override
    public void close() {
      try {
        in.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
