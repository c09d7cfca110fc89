package dev.llmbench.internal.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The general path of {@link ChatStreamParser}: reads each chunk (an event's data, or a whole JSON body) with one
 * non-blocking Jackson parser for the whole stream, which takes the bytes straight from the read buffers, so a
 * chunk split across reads is never copied and nothing is allocated per chunk. Its tokens drive a small state
 * machine that keeps only what {@link StreamRecorder} needs (a {@link ChunkReading}), and a chunk that ends whole is
 * recorded. Jackson
 * rejects bytes that are not UTF-8 (overlong forms and surrogates included), which becomes
 * {@link StreamFailure.Cause#INVALID_UTF8}, never a U+FFFD in the text.
 *
 * <p>It also holds the stream's first failure, its own or one its caller hands it: once there is one, no token
 * counts any more (the check is on every token, so it lives here).
 *
 * <p>Not thread-safe: one per stream, fed by one thread at a time.
 */
final class ChunkJsonReader {

  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] LINE_BREAK = {'\n'};
  private static final int EXCERPT = 120;
  private static final Pattern PER_RESPONSE =
      Pattern.compile("\"(id|created|system_fingerprint)\"\\s*:\\s*(\"[^\"]*\"|-?\\d+)");

  /** Containers whose content matters; anything else is skipped by depth. */
  private enum Context {
    TOP, CHOICES, CHOICE, DELTA, TOOL_CALLS, TOOL_CALL, FUNCTION, USAGE, COMPLETION_DETAILS, PROMPT_DETAILS, TIMINGS, ERROR, DATA,
    /** {@code choices[0].logprobs}, its {@code content} array, a token of it, its {@code top_logprobs}, one of those, bytes. */
    LOGPROBS, LOGPROB_CONTENT, LOGPROB_TOKEN, TOP_LOGPROBS, TOP_LOGPROB, LOGPROB_BYTES
  }

  /** A logprob's bytes sit nine containers deep: top, choices, choice, logprobs, content, token, top, choice, bytes. */
  private static final int MAX_DEPTH = 10;

  private final StreamRecorder recorder;
  private final JsonParser json;
  private final ByteArrayFeeder feeder;
  /** A whole JSON body, not an event stream's chunks: only the failure messages differ. */
  private final boolean wholeBody;
  /** Told where a chunk's text lies, to learn its envelope; null without the shortcut. */
  private final EnvelopeShortcut shortcut;
  private long fed;
  /** {@link #fed} where the chunk in progress starts: Jackson's offsets count from the stream's first byte. */
  private long chunkStart;

  // The chunk in progress.
  private final Context[] stack = new Context[MAX_DEPTH];
  private int depth;
  private int skipDepth;
  private boolean rootClosed;
  private String field;
  private int choiceElements;
  /** Position of the tool call being read in its array, and its index (the {@code index} field where given). */
  private int toolPosition;
  private int toolIndex;
  private final ChunkReading chunk = new ChunkReading();

  private StreamFailure failure;
  /** The data a failure message quotes: the last slice the caller read. */
  private byte[] lastData;
  private int lastFrom;
  private int lastTo;

  ChunkJsonReader(StreamRecorder recorder, boolean wholeBody, EnvelopeShortcut shortcut) {
    this.recorder = recorder;
    this.wholeBody = wholeBody;
    this.shortcut = shortcut;
    try {
      this.json = JSON.createNonBlockingByteArrayParser();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    this.feeder = (ByteArrayFeeder) json.getNonBlockingInputFeeder();
  }

  /** A new chunk starts: nothing of the last one counts. */
  void startChunk() {
    chunkStart = fed;
    depth = 0;
    skipDepth = 0;
    rootClosed = false;
    choiceElements = 0;
    chunk.reset();
  }

  /** {@code bytes[from, to)} is the data a failure message would quote (the bytes are not kept past the call). */
  void quote(byte[] bytes, int from, int to) {
    lastData = bytes;
    lastFrom = from;
    lastTo = to;
  }

  /** Reads {@code bytes[from, to)} of the chunk in progress. */
  void feed(byte[] bytes, int from, int to) throws IOException {
    feeder.feedInput(bytes, from, to);
    fed += to - from;
    JsonToken token;
    while ((token = json.nextToken()) != JsonToken.NOT_AVAILABLE && token != null) {
      if (failure != null) return;
      token(token);
    }
  }

  /** Whether the chunk's root object has closed. */
  boolean complete() {
    return rootClosed;
  }

  /**
   * The chunk's data ended at {@code arrivalNanos}: records it if it is one whole JSON object, fails otherwise.
   *
   * @return whether it was recorded
   */
  boolean end(long arrivalNanos) throws IOException {
    // A root scalar ends only at a delimiter: one blank makes "42" (or the "1" of "{} 1") a token, to be
    // refused as such in this chunk, not found at the start of the next.
    if (depth == 0) feed(LINE_BREAK, 0, 1);
    if (failure != null) return false;
    if (!rootClosed) {
      recorder.dropEventText();
      fail(StreamFailure.Cause.MALFORMED, wholeBody ? "the body ended inside its JSON" : "an event ended inside its JSON");
      return false;
    }
    chunk.recordTo(recorder, arrivalNanos);
    return true;
  }

  /** Whether the chunk just read was plain: one non-empty content or reasoning string and nothing else that counts. */
  boolean plainText() {
    return chunk.plainText();
  }

  void close() {
    try {
      json.close();
    } catch (IOException e) {
      // Nothing to release that matters.
    }
  }

  // ---- the state machine over JSON tokens ----

  private void token(JsonToken token) throws IOException {
    if (skipDepth > 0) {
      if (token.isStructStart()) {
        skipDepth++;
      } else if (token.isStructEnd()) {
        skipDepth--;
      }
      return;
    }
    if (rootClosed) {
      fail(StreamFailure.Cause.MALFORMED, wholeBody ? "the body holds more than one JSON value"
          : "an event holds more than one JSON value");
      return;
    }
    if (depth == 0 && token.isScalarValue()) {
      notAnObject();
      return;
    }
    switch (token) {
      case FIELD_NAME -> field = json.currentName();
      case START_OBJECT, START_ARRAY -> open(token == JsonToken.START_OBJECT);
      case END_OBJECT, END_ARRAY -> {
        Context closed = stack[depth - 1];
        if (closed == Context.LOGPROB_TOKEN || closed == Context.TOP_LOGPROB) recorder.logprobEnd(closed == Context.TOP_LOGPROB);
        if (--depth == 0) rootClosed = true;
      }
      case VALUE_STRING -> string();
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number();
      default -> { }
    }
  }

  private void open(boolean object) {
    if (depth == 0) {
      if (!object) {
        notAnObject();
        return;
      }
      push(Context.TOP);
      return;
    }
    Context child = null;
    Context parent = stack[depth - 1];
    if (object) {
      switch (parent) {
        case TOP -> child = switch (field) {
          case "usage" -> Context.USAGE;
          case "timings" -> Context.TIMINGS;
          case "error" -> Context.ERROR;
          default -> null;
        };
        case CHOICES -> {
          if (choiceElements++ == 0) {
            child = Context.CHOICE;
            chunk.choice = true;
          }
        }
        case CHOICE -> child = "delta".equals(field) || "message".equals(field) ? Context.DELTA
            : "logprobs".equals(field) ? Context.LOGPROBS : null;
        case LOGPROB_CONTENT -> child = Context.LOGPROB_TOKEN;
        case TOP_LOGPROBS -> child = Context.TOP_LOGPROB;
        case TOOL_CALLS -> {
          child = Context.TOOL_CALL;
          toolIndex = ++toolPosition;
        }
        case DATA -> chunk.embeddings++; // an embedding's vector is skipped unread
        case TOOL_CALL -> child = "function".equals(field) ? Context.FUNCTION : null;
        case USAGE -> child = switch (field) {
          case "completion_tokens_details" -> Context.COMPLETION_DETAILS;
          case "prompt_tokens_details" -> Context.PROMPT_DETAILS;
          default -> null;
        };
        default -> child = null;
      }
      if (child == Context.USAGE) chunk.usage();
      if (child == Context.LOGPROB_TOKEN || child == Context.TOP_LOGPROB) {
        chunk.otherFields = true; // never plain text: the shortcut must not learn a chunk with logprobs
        recorder.logprobStart(child == Context.TOP_LOGPROB);
      }
    } else if (parent == Context.TOP && "choices".equals(field)) {
      child = Context.CHOICES;
    } else if (parent == Context.DELTA && "tool_calls".equals(field)) {
      child = Context.TOOL_CALLS;
      toolPosition = -1;
    } else if (parent == Context.TOP && "data".equals(field)) {
      child = Context.DATA;
    } else if (parent == Context.LOGPROBS && "content".equals(field)) {
      child = Context.LOGPROB_CONTENT;
    } else if (parent == Context.LOGPROB_TOKEN && "top_logprobs".equals(field)) {
      child = Context.TOP_LOGPROBS;
    } else if ((parent == Context.LOGPROB_TOKEN || parent == Context.TOP_LOGPROB) && "bytes".equals(field)) {
      child = Context.LOGPROB_BYTES;
    }
    if (child == null || depth == MAX_DEPTH) {
      skipDepth = 1;
    } else {
      push(child);
    }
  }

  private void push(Context context) {
    stack[depth++] = context;
  }

  private void string() throws IOException {
    switch (stack[depth - 1]) {
      case DELTA -> {
        switch (field) {
          case "content" -> text(TokenChunks.CONTENT);
          case "reasoning_content", "reasoning" -> text(TokenChunks.REASONING);
          default -> { }
        }
      }
      case CHOICE -> {
        if ("text".equals(field)) {
          text(TokenChunks.CONTENT);
        } else if ("finish_reason".equals(field)) {
          chunk.finishReason = json.getText();
        }
      }
      case FUNCTION -> {
        chunk.otherFields = true;
        boolean name = "name".equals(field);
        if ((name || "arguments".equals(field)) && json.getTextLength() > 0) {
          chunk.kind |= TokenChunks.CONTENT;
          chunk.toolCall = true;
          recorder.appendToolCall(Math.max(0, toolIndex), name, json.getTextCharacters(), json.getTextOffset(),
              json.getTextLength());
        }
      }
      case TOOL_CALL -> {
        chunk.otherFields = true;
        if ("id".equals(field) && json.getTextLength() > 0) {
          recorder.toolCallId(Math.max(0, toolIndex), json.getTextCharacters(), json.getTextOffset(), json.getTextLength());
        }
      }
      case TOP -> {
        if ("object".equals(field)) {
          chunk.objectIsError = textIs("error");
        } else if ("error".equals(field) || "message".equals(field) && chunk.objectIsError) {
          chunk.errorMessage = Excerpt.of(json.getText(), EXCERPT * 2);
        }
      }
      case ERROR -> {
        if ("message".equals(field)) chunk.errorMessage = Excerpt.of(json.getText(), EXCERPT * 2);
      }
      case LOGPROB_TOKEN, TOP_LOGPROB -> {
        if ("token".equals(field)) recorder.logprobText(stack[depth - 1] == Context.TOP_LOGPROB, json.getText());
      }
      default -> { }
    }
  }

  /** Whether the current string is {@code expected}, without making a String of it (it is on every chunk). */
  private boolean textIs(String expected) throws IOException {
    int length = json.getTextLength();
    if (length != expected.length()) return false;
    char[] chars = json.getTextCharacters();
    int offset = json.getTextOffset();
    for (int i = 0; i < length; i++) if (chars[offset + i] != expected.charAt(i)) return false;
    return true;
  }

  /** The current string, read as content or reasoning ({@code textKind}); an empty one is no output. */
  private void text(int textKind) throws IOException {
    int length = json.getTextLength();
    if (length == 0) return;
    if (++chunk.textStrings == 1 && shortcut != null) shortcut.noteText(json, chunkStart, textKind);
    char[] chars = json.getTextCharacters();
    int offset = json.getTextOffset();
    chunk.kind |= textKind;
    if (textKind == TokenChunks.CONTENT) {
      chunk.contentChars += length;
      recorder.appendContent(chars, offset, length);
    } else {
      chunk.reasoningChars += length;
      recorder.appendReasoning(chars, offset, length);
    }
  }

  private void number() throws IOException {
    switch (stack[depth - 1]) {
      case USAGE -> {
        switch (field) {
          case "prompt_tokens" -> chunk.promptTokens = count();
          case "completion_tokens" -> chunk.completionTokens = count();
          default -> { }
        }
      }
      case COMPLETION_DETAILS -> {
        if ("reasoning_tokens".equals(field)) chunk.reasoningTokens = count();
      }
      case PROMPT_DETAILS -> {
        if ("cached_tokens".equals(field)) chunk.cachedTokens = count();
      }
      case TIMINGS -> {
        chunk.otherFields = true;
        recorder.timing(field, json.getDoubleValue());
      }
      case TOOL_CALL -> {
        chunk.otherFields = true;
        if ("index".equals(field)) toolIndex = count();
      }
      case LOGPROB_TOKEN, TOP_LOGPROB -> {
        boolean alternative = stack[depth - 1] == Context.TOP_LOGPROB;
        if ("id".equals(field)) recorder.logprobId(alternative, count());
        else if ("logprob".equals(field)) recorder.logprob(alternative, json.getDoubleValue());
      }
      case LOGPROB_BYTES -> recorder.logprobByte(stack[depth - 2] == Context.TOP_LOGPROB, count());
      default -> { }
    }
  }

  /** A token count; one that is negative or too large for an int counts as absent. */
  private int count() throws IOException {
    if (json.currentToken() != JsonToken.VALUE_NUMBER_INT || json.getNumberType() != JsonParser.NumberType.INT) return -1;
    return Math.max(-1, json.getIntValue());
  }

  private void notAnObject() {
    fail(StreamFailure.Cause.MALFORMED, (wholeBody ? "the body is not a JSON object: " : "an event is not a JSON object: ")
        + lastExcerpt());
  }

  // ---- failures ----

  /** The stream's first failure, or null. */
  StreamFailure failure() {
    return failure;
  }

  /** Jackson refused the bytes. */
  void fail(JsonProcessingException e) {
    String detail = e.getOriginalMessage();
    if (detail != null && detail.startsWith("Invalid UTF-8")) {
      fail(StreamFailure.Cause.INVALID_UTF8, "the stream is not valid UTF-8: " + firstLine(detail));
    } else {
      fail(StreamFailure.Cause.MALFORMED, (wholeBody ? "the body is not JSON: " : "an event is not JSON: ")
          + firstLine(detail) + "; data: " + lastExcerpt());
    }
  }

  /** The stream failed with {@code cause}, unless it already had; no token counts from now on. */
  void fail(StreamFailure.Cause cause, String message) {
    if (failure == null) failure = new StreamFailure(cause, 200, message);
  }

  private String lastExcerpt() {
    return lastData == null ? "" : excerpt(lastData, lastFrom, lastTo);
  }

  /** Jackson's message without its line breaks and its note on where a container started. */
  private static String firstLine(String s) {
    if (s == null) return "";
    int nl = s.indexOf('\n');
    if (nl >= 0) s = s.substring(0, nl);
    int marker = s.indexOf(" (start marker at");
    return marker < 0 ? s : s.substring(0, marker);
  }

  /**
   * The bytes as text for a message, with the values that differ per response ({@code id}, {@code created},
   * {@code system_fingerprint}) left out, so that equal failures read alike and group.
   */
  static String excerpt(byte[] bytes, int from, int to) {
    int length = Math.min(to - from, EXCERPT * 4);
    String text = new String(bytes, from, length, StandardCharsets.UTF_8);
    return Excerpt.of(PER_RESPONSE.matcher(text).replaceAll("\"$1\":…"), EXCERPT);
  }
}
