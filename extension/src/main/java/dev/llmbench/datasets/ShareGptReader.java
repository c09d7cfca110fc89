package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.BadInputException;
import dev.llmbench.internal.workload.JsonFields;
import dev.llmbench.internal.workload.Row;
import dev.llmbench.internal.workload.TokenEstimate;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * ShareGPT: one JSON array of {@code {"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}]}},
 * as {@code vllm bench serve --dataset-name sharegpt} reads it: the first human turn is the prompt and the
 * turn after it the reply, whose length is the row's output length. Read with Jackson's streaming parser, one
 * conversation in memory at a time, so files of hundreds of megabytes are never loaded whole.
 *
 * <p>As vLLM does, conversations of fewer than two turns are skipped (counted, not an error), and so are
 * those the {@link Filter} rejects; a conversation that is not of this shape (no {@code conversations}, a turn
 * without {@code from} or {@code value}) fails with its line.
 */
@API(status = INTERNAL)
public final class ShareGptReader implements DatasetReader {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();
  private static final Set<String> HUMAN = Set.of("human", "user");

  /**
   * vLLM's {@code is_valid_sequence} for ShareGPT: a prompt or reply under {@code minTokens}, a prompt over
   * {@code maxInputTokens} or a prompt and reply over {@code maxTotalTokens} is skipped; 0 turns a bound off.
   * The reply's minimum is not checked when the output length is fixed, as in vLLM.
   */
  public record Filter(int minTokens, int maxInputTokens, int maxTotalTokens, boolean checkReply) {
    public static final Filter VLLM = new Filter(4, 1024, 2048, true);
    public static final Filter NONE = new Filter(0, 0, 0, false);

    public Filter {
      if (minTokens < 0 || maxInputTokens < 0 || maxTotalTokens < 0) {
        throw new IllegalArgumentException("ShareGPT length bounds must be 0 (off) or positive, were " + minTokens + ", "
            + maxInputTokens + ", " + maxTotalTokens);
      }
    }

    boolean keeps(int input, int output) {
      if (minTokens > 0 && (input < minTokens || (checkReply && output < minTokens))) return false;
      if (maxInputTokens > 0 && input > maxInputTokens) return false;
      return maxTotalTokens <= 0 || input + output <= maxTotalTokens;
    }

    @Override
    public String toString() {
      return this.equals(NONE) ? "none" : "prompt and reply >= " + minTokens + ", prompt <= " + maxInputTokens
          + ", prompt + reply <= " + maxTotalTokens + " tokens (estimated)";
    }
  }

  private final Filter filter;
  private int skippedShort;
  private int skippedByLength;
  private int modelFirst;

  public ShareGptReader(Filter filter) {
    this.filter = filter;
  }

  @Override
  public String format() {
    return "sharegpt";
  }

  @Override
  public String rowShape() {
    return "[{\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, {\"from\": \"gpt\", \"value\": \"...\"}]}, ...]";
  }

  /** Conversations skipped, as vLLM skips them: fewer than two turns, or outside the filter's lengths. */
  public int skipped() {
    return skippedShort + skippedByLength;
  }

  /**
   * Rows kept whose first turn (after a system prompt) was the model's: that turn is not sent, the row's prompt is
   * its first human turn. Said as a warning, never silently.
   */
  public int modelFirst() {
    return modelFirst;
  }

  /** Why rows were skipped, e.g. {@code 1 with fewer than two turns, 3 outside vLLM's lengths (prompt and reply >= 4, ...)}. */
  public String skippedWhy() {
    List<String> why = new java.util.ArrayList<>();
    if (skippedShort > 0) why.add(skippedShort + " with fewer than two turns");
    if (skippedByLength > 0) why.add(skippedByLength + " outside the length filter (" + filter + ")");
    return why.isEmpty() ? "none" : String.join(", ", why);
  }

  @Override
  public void read(Path file, RowSink sink) throws IOException {
    try (InputStream in = Files.newInputStream(file); JsonParser p = FACTORY.createParser(in)) {
      p.setCodec(JSON);
      JsonToken first;
      try {
        first = p.nextToken();
      } catch (JsonParseException e) {
        throw new BadInputException(file, e.getLocation() == null ? 1 : e.getLocation().getLineNr(), "",
            "not JSON (" + e.getOriginalMessage() + ")", "a ShareGPT file: " + rowShape(), e);
      }
      if (first == null) throw new BadInputException(file, 0, "", "is empty", "a ShareGPT file: " + rowShape());
      if (first != JsonToken.START_ARRAY) {
        throw new BadInputException(file, p.currentLocation().getLineNr(), "", "is not a JSON array (it starts with "
            + (first == JsonToken.START_OBJECT ? "an object: JSON Lines are format OPENAI_CHAT or VLLM_CUSTOM" : first.asString())
            + ")", "a ShareGPT file: " + rowShape());
      }
      int number = 0;
      while (true) {
        JsonToken t;
        long line;
        JsonNode entry;
        try {
          t = p.nextToken();
          if (t == JsonToken.END_ARRAY) break;
          line = p.currentLocation().getLineNr();
          if (t == null) throw new BadInputException(file, line, "", "ends before its array closes", "a ShareGPT file: " + rowShape());
          entry = p.readValueAsTree();
        } catch (JsonParseException e) {
          throw new BadInputException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(), "",
              "not JSON (" + e.getOriginalMessage() + ")", "a ShareGPT file: " + rowShape(), e);
        }
        number++;
        Row row = row(entry, number, line, new JsonFields(file, line, "{\"conversations\": [{\"from\": \"human\", "
            + "\"value\": \"...\"}, {\"from\": \"gpt\", \"value\": \"...\"}]}"));
        if (row != null && !sink.accept(row)) return;
      }
    }
  }

  /** The row of one conversation, or null when vLLM would skip it. */
  private Row row(JsonNode entry, int number, long line, JsonFields fields) {
    String at = "[" + (number - 1) + "]";
    if (!entry.isObject()) throw fields.bad("", at + " is " + JsonFields.kind(entry) + ", not a conversation", "{\"conversations\": [...]}");
    JsonNode turns = entry.get("conversations");
    if (turns == null || turns.isNull()) throw fields.bad("conversations", "missing" + JsonFields.otherFormat(entry),
        "{\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, ...]}");
    if (!turns.isArray()) throw fields.bad("conversations", "is " + JsonFields.kind(turns), "an array of {\"from\", \"value\"} turns");
    for (int i = 0; i < turns.size(); i++) {
      JsonNode turn = turns.get(i);
      if (!turn.isObject()) throw fields.bad("conversations[" + i + "]", "is " + JsonFields.kind(turn), "{\"from\": \"human\", \"value\": \"...\"}");
      fields.text(turn, "from", "conversations[" + i + "].from");
      fields.text(turn, "value", "conversations[" + i + "].value");
    }
    if (turns.size() < 2) {
      skippedShort++;
      return null;
    }
    int human = -1;
    for (int i = 0; i < turns.size() - 1 && human < 0; i++) {
      if (HUMAN.contains(turns.get(i).get("from").asText())) human = i;
    }
    if (human < 0) {
      skippedShort++; // no human turn with a reply after it: nothing to send, as vLLM would have nothing either
      return null;
    }
    boolean opensWithModel = false;
    for (int i = 0; i < human; i++) opensWithModel |= !turns.get(i).get("from").asText().equals("system");
    String prompt = turns.get(human).get("value").asText();
    String reply = turns.get(human + 1).get("value").asText();
    int input = TokenEstimate.of(prompt);
    int output = TokenEstimate.of(reply);
    if (!filter.keeps(input, output)) {
      skippedByLength++;
      return null;
    }
    if (opensWithModel) modelFirst++;
    return new Row(number, line, List.of(ChatMessage.user(prompt)), input, OptionalInt.of(output), null, Map.of());
  }
}
