package dev.llmbench.internal.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads an OpenAI-style response body as its bytes arrive: an event stream (chat or completions chunks,
 * {@code [DONE]}) or one whole JSON answer. One non-blocking Jackson parser per stream takes the data bytes
 * straight from the read buffers, so an event split across reads is never copied and nothing is allocated
 * per event; its tokens drive a small state machine that keeps only what {@link StreamRecorder} needs.
 * Jackson rejects bytes that are not UTF-8 (overlong forms and surrogates included), which becomes
 * {@link StreamFailure.Cause#INVALID_UTF8}, never a U+FFFD in the text.
 *
 * <p>Token chunks of one stream differ only in their text: a server writes the same envelope (id, created,
 * model, index, ...) around each. Once Jackson has read a plain chunk (one non-empty content or reasoning
 * string and nothing else that counts), its bytes before and after that string become a template; a later
 * event whose data is the same head, a string {@link JsonStringBody} can read, and the same tail must
 * tokenize exactly as that chunk did but for the string, so it is taken without Jackson. Anything else goes
 * through Jackson, whose reading stands.
 *
 * <p>Not thread-safe: one per stream, fed by one thread at a time.
 */
final class ChatStreamParser implements SseFramer.Sink {

  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] LINE_BREAK = {'\n'};
  private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
  private static final int EXCERPT = 120;
  private static final java.util.regex.Pattern PER_RESPONSE =
      java.util.regex.Pattern.compile("\"(id|created|system_fingerprint)\"\\s*:\\s*(\"[^\"]*\"|-?\\d+)");

  // What the data of the current event is, decided by its first byte that is not blank.
  private static final int UNDECIDED = 0;
  private static final int JSON_DATA = 1;
  private static final int RAW_DATA = 2;
  /** The data so far is the template's head, a simple string, and its tail: not yet shown to Jackson. */
  private static final int SHORTCUT = 3;
  private static final int SHORTCUT_MAX = 1 << 16;

  /** Containers whose content matters; anything else is skipped by depth. */
  private enum Context {
    TOP, CHOICES, CHOICE, DELTA, TOOL_CALLS, TOOL_CALL, FUNCTION, USAGE, COMPLETION_DETAILS, PROMPT_DETAILS, TIMINGS, ERROR, DATA
  }

  private static final int MAX_DEPTH = 8;

  private final StreamRecorder recorder;
  private final SseFramer framer;
  private final JsonParser json;
  private final ByteArrayFeeder feeder;
  private final String contentType;
  /**
   * Where a direct buffer's bytes are copied to be read: one per thread (an event loop reads many streams), not
   * per stream, whose 8 KB each were a seventh of what a replay at 1,000 requests/s allocated. Reading never
   * keeps a reference to the bytes it is given, so the next copy may overwrite them.
   */
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[8192]);

  // The event in progress.
  private int mode;
  private boolean firstDataLine = true;
  private final byte[] raw = new byte[16];
  private int rawLength;
  private final Context[] stack = new Context[MAX_DEPTH];
  private int depth;
  private int skipDepth;
  private boolean rootClosed;
  private String field;
  private int choiceElements;
  private boolean choice;
  private int kind;
  private int contentChars;
  private int reasoningChars;
  private String finishReason;
  private boolean usage;
  private int promptTokens;
  private int completionTokens;
  private int reasoningTokens;
  private int cachedTokens;
  private boolean objectIsError;
  private String errorMessage;
  private boolean otherFields;
  /** The event carried a tool call's name or arguments. */
  private boolean toolCall;
  /** Position of the tool call being read in its array, and its index (the {@code index} field where given). */
  private int toolPosition;
  private int toolIndex;
  /** Elements of an embeddings answer's {@code data}. */
  private int embeddings;

  // The template for the shortcut, and what is needed to make one from the event in progress.
  private final boolean shortcut;
  private byte[] head;
  private byte[] tail;
  private int templateKind;
  private char[] pending = new char[64];
  private int pendingLength;
  private byte[] pendingBytes = new byte[64];
  private int pendingBytesLength;
  private long fed;
  private int eventSlices;
  /** The event's data while it is all in one slice: the caller's buffer is reused once feed returns. */
  private byte[] eventCopy = new byte[256];
  private int eventLength;
  private int eventJsonFrom;
  private long eventFedStart;
  private int textStrings;
  private int textIndex = -1;
  private int textBytes;
  private int textKind;
  private int shortcutEvents;

  private StreamFailure failure;
  private long bodyBytes;
  private byte[] lastInput;
  private int lastFrom;
  private int lastTo;

  private ChatStreamParser(StreamRecorder recorder, boolean eventStream, String contentType, boolean shortcut) {
    this.recorder = recorder;
    this.shortcut = shortcut && eventStream;
    this.contentType = contentType;
    this.framer = eventStream ? new SseFramer(this) : null;
    try {
      this.json = JSON.createNonBlockingByteArrayParser();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    this.feeder = (ByteArrayFeeder) json.getNonBlockingInputFeeder();
    if (!eventStream) startEvent();
  }

  /** For a {@code text/event-stream} body. */
  static ChatStreamParser eventStream(StreamRecorder recorder) {
    return new ChatStreamParser(recorder, true, "text/event-stream", true);
  }

  /** For a {@code text/event-stream} body, every event read by Jackson: the reference the shortcut is tested against. */
  static ChatStreamParser eventStreamWithoutShortcut(StreamRecorder recorder) {
    return new ChatStreamParser(recorder, true, "text/event-stream", false);
  }

  /** For a whole JSON body ({@code stream: false}, or a server that ignored it) sent as {@code contentType}. */
  static ChatStreamParser jsonBody(StreamRecorder recorder, String contentType) {
    return new ChatStreamParser(recorder, false, contentType, false);
  }

  /** The failure found so far, or null; once set, further input is ignored. */
  StreamFailure failure() {
    return failure;
  }

  int events() {
    return recorder.events();
  }

  /**
   * Reads {@code buf[from, to)}, which arrived at {@code nowNanos}.
   *
   * @return false once the body is known to be bad: stop reading it
   */
  boolean feed(byte[] buf, int from, int to, long nowNanos) {
    if (failure != null) return false;
    try {
      if (framer != null) {
        framer.feed(buf, from, to, nowNanos);
      } else {
        bodyBytes += to - from;
        if (mode == UNDECIDED) from = decideBody(buf, from, to);
        if (from < to && failure == null) data(buf, from, to);
      }
    } catch (JsonProcessingException e) {
      fail(e);
    } catch (IOException e) {
      fail(StreamFailure.Cause.MALFORMED, e.getMessage());
    }
    return failure == null;
  }

  /** Reads a buffer's remaining bytes; its position is left as it was. */
  boolean feed(ByteBuffer buffer, long nowNanos) {
    if (buffer.hasArray()) {
      int from = buffer.arrayOffset() + buffer.position();
      return feed(buffer.array(), from, from + buffer.remaining(), nowNanos);
    }
    byte[] scratch = SCRATCH.get();
    ByteBuffer view = buffer.duplicate();
    while (view.hasRemaining()) {
      int length = Math.min(view.remaining(), scratch.length);
      view.get(scratch, 0, length);
      if (!feed(scratch, 0, length, nowNanos)) return false;
    }
    return true;
  }

  /** Events read by the shortcut, without Jackson. */
  int shortcutEvents() {
    return shortcutEvents;
  }

  long bytes() {
    return framer != null ? framer.bytes() : bodyBytes;
  }

  /**
   * The body ended cleanly at {@code nowNanos}. A last event complete but for its blank line still counts;
   * an event cut in half is a failure.
   */
  RequestTrace finish(long nowNanos) {
    if (failure == null) {
      try {
        if (framer == null) {
          if (mode == UNDECIDED) {
            fail(StreamFailure.Cause.MALFORMED, "the body is empty");
          } else {
            commit(nowNanos);
          }
        } else if (framer.eventHasData()) {
          boolean complete = mode == JSON_DATA ? rootClosed : mode == SHORTCUT || mode == RAW_DATA && isDone();
          if (complete) {
            dispatch(nowNanos);
          } else {
            recorder.dropEventText();
            fail(StreamFailure.Cause.CUT_MID_STREAM, "the stream ended inside an event");
          }
        }
      } catch (JsonProcessingException e) {
        fail(e);
      } catch (IOException e) {
        fail(StreamFailure.Cause.MALFORMED, e.getMessage());
      }
    }
    return finishWith(nowNanos, failure);
  }

  /** The body ended with {@code cause} at {@code nowNanos} (a timeout, a reset, a cancel). */
  RequestTrace fail(long nowNanos, StreamFailure cause) {
    if (framer == null || framer.inEvent()) recorder.dropEventText();
    return finishWith(nowNanos, failure != null ? failure : cause);
  }

  private RequestTrace finishWith(long nowNanos, StreamFailure cause) {
    try {
      json.close();
    } catch (IOException e) {
      // Nothing to release that matters.
    }
    return recorder.finish(nowNanos, bytes(), cause);
  }

  // ---- SseFramer.Sink ----

  @Override
  public void dataLine() throws IOException {
    if (firstDataLine) {
      firstDataLine = false;
      startEvent();
      return;
    }
    eventSlices = 2;
    if (mode == SHORTCUT) replay();
    if (mode == JSON_DATA) {
      feedJson(LINE_BREAK, 0, 1);
    } else if (mode == RAW_DATA) {
      appendRaw(LINE_BREAK, 0, 1);
    }
  }

  @Override
  public void data(byte[] bytes, int from, int to) throws IOException {
    lastInput = bytes;
    lastFrom = from;
    lastTo = to;
    if (eventSlices++ == 0 && shortcut) {
      if (head != null && failure == null && matchesTemplate(bytes, from, to)) return;
      keepSlice(bytes, from, to);
    }
    if (mode == SHORTCUT) replay();
    if (mode == UNDECIDED) {
      while (from < to && (bytes[from] == ' ' || bytes[from] == '\t')) from++;
      if (from == to) return;
      mode = bytes[from] == '[' ? RAW_DATA : JSON_DATA;
      eventJsonFrom = from - lastFrom;
      eventFedStart = fed;
    }
    if (mode == JSON_DATA) {
      feedJson(bytes, from, to);
    } else {
      appendRaw(bytes, from, to);
    }
  }

  @Override
  public void dispatch(long arrivalNanos) throws IOException {
    firstDataLine = true;
    if (mode == RAW_DATA) {
      if (!isDone()) {
        fail(StreamFailure.Cause.MALFORMED, "an event is neither a JSON object nor [DONE]: "
            + excerpt(raw, 0, rawLength));
        return;
      }
      recorder.markDone();
    } else if (mode == JSON_DATA) {
      commit(arrivalNanos);
    } else if (mode == SHORTCUT) {
      commitShortcut(arrivalNanos);
    }
    // An event whose data is blank is no message: skipped, as a keep-alive.
    mode = UNDECIDED;
  }

  // ---- the event in progress ----

  private void startEvent() {
    mode = UNDECIDED;
    rawLength = 0;
    depth = 0;
    skipDepth = 0;
    rootClosed = false;
    choiceElements = 0;
    choice = false;
    kind = 0;
    contentChars = 0;
    reasoningChars = 0;
    finishReason = null;
    usage = false;
    objectIsError = false;
    errorMessage = null;
    otherFields = false;
    toolCall = false;
    embeddings = 0;
    eventSlices = 0;
    textStrings = 0;
    textIndex = -1;
    recorder.markEvent();
  }

  private void commit(long arrivalNanos) throws IOException {
    // A root scalar ends only at a delimiter: one blank makes "42" (or the "1" of "{} 1") a token, to be
    // refused as such in this event, not found at the start of the next.
    if (depth == 0) feedJson(LINE_BREAK, 0, 1);
    if (failure != null) return;
    if (!rootClosed) {
      recorder.dropEventText();
      fail(StreamFailure.Cause.MALFORMED, framer == null ? "the body ended inside its JSON"
          : "an event ended inside its JSON");
      return;
    }
    recorder.event();
    if (choice) {
      recorder.choice(arrivalNanos, kind, toolCall);
      recorder.chars(contentChars, reasoningChars);
    }
    if (embeddings > 0) recorder.embeddings(embeddings);
    if (finishReason != null) recorder.finishReason(finishReason);
    if (usage) recorder.usage(promptTokens, completionTokens, reasoningTokens, cachedTokens);
    if (errorMessage != null) {
      recorder.serverError(errorMessage);
    } else if (objectIsError) {
      recorder.serverError("(no message)");
    }
    if (shortcut) learnTemplate();
  }

  // ---- the shortcut ----

  private boolean matchesTemplate(byte[] bytes, int from, int to) {
    int textFrom = from + head.length;
    int length = to - tail.length - textFrom;
    if (length < 0 || length > SHORTCUT_MAX
        || !Arrays.equals(bytes, from, textFrom, head, 0, head.length)
        || !Arrays.equals(bytes, to - tail.length, to, tail, 0, tail.length)) {
      return false;
    }
    roomForText(length);
    int chars = JsonStringBody.decode(bytes, textFrom, textFrom + length, pending);
    if (chars < 0) return false;
    System.arraycopy(bytes, textFrom, pendingBytes, 0, length);
    pendingBytesLength = length;
    pendingLength = chars;
    mode = SHORTCUT;
    return true;
  }

  private void roomForText(int bytes) {
    if (bytes <= pending.length) return;
    pending = new char[Math.max(bytes, pending.length * 2)];
    pendingBytes = new byte[pending.length];
  }

  /** What commit does for the template's chunk, with this event's text. */
  private void commitShortcut(long arrivalNanos) {
    shortcutEvents++;
    if (pendingLength > 0) text(templateKind, pending, 0, pendingLength);
    recorder.event();
    recorder.choice(arrivalNanos, kind, false);
    recorder.chars(contentChars, reasoningChars);
  }

  /** The event turned out longer than the template (a second line, or more bytes): Jackson reads it all. */
  private void replay() throws IOException {
    mode = JSON_DATA;
    feedJson(head, 0, head.length);
    feedJson(pendingBytes, 0, pendingBytesLength);
    feedJson(tail, 0, tail.length);
  }

  /** After Jackson read a whole event: if it was a plain chunk that came in one slice, keep its envelope. */
  private void learnTemplate() {
    if (textStrings != 1 || textIndex < 0 || eventSlices != 1 || !choice
        || finishReason != null || usage || errorMessage != null || objectIsError || otherFields) {
      return;
    }
    int at = eventJsonFrom + textIndex;
    int end = at + textBytes;
    if (at <= 0 || end >= eventLength || eventCopy[at - 1] != '"' || eventCopy[end] != '"') return;
    head = Arrays.copyOfRange(eventCopy, 0, at);
    tail = Arrays.copyOfRange(eventCopy, end, eventLength);
    templateKind = textKind;
  }

  private void keepSlice(byte[] bytes, int from, int to) {
    int length = to - from;
    if (length > SHORTCUT_MAX) {
      eventSlices = 2; // too long to keep: never a template
      return;
    }
    if (length > eventCopy.length) eventCopy = new byte[Math.max(length, eventCopy.length * 2)];
    System.arraycopy(bytes, from, eventCopy, 0, length);
    eventLength = length;
  }

  /**
   * Where the current string's bytes lie in the event's slice, if {@link JsonStringBody} reads them as
   * exactly the text Jackson read.
   */
  private void noteText(int kind) throws IOException {
    if (++textStrings != 1 || !shortcut || eventSlices != 1) return;
    long offset = json.currentTokenLocation().getByteOffset() - eventFedStart;
    long end = json.currentLocation().getByteOffset() - eventFedStart - 1; // the closing quote
    if (offset < 0 || end < offset || eventJsonFrom + end >= eventLength) return;
    int at = eventJsonFrom + (int) offset;
    int bytes = (int) (end - offset);
    roomForText(bytes);
    int length = json.getTextLength();
    if (JsonStringBody.decode(eventCopy, at, at + bytes, pending) != length
        || !Arrays.equals(pending, 0, length, json.getTextCharacters(), json.getTextOffset(), json.getTextOffset() + length)) {
      return;
    }
    textIndex = (int) offset;
    textBytes = bytes;
    textKind = kind;
  }

  private boolean isDone() {
    int from = 0;
    int to = rawLength;
    while (to > from && (raw[to - 1] == ' ' || raw[to - 1] == '\t' || raw[to - 1] == '\n')) to--;
    if (to - from != DONE.length) return false;
    for (int i = 0; i < DONE.length; i++) if (raw[from + i] != DONE[i]) return false;
    return true;
  }

  private void appendRaw(byte[] bytes, int from, int to) {
    int length = to - from;
    if (rawLength + length > raw.length) {
      fail(StreamFailure.Cause.MALFORMED, "an event is neither a JSON object nor [DONE]: " + excerpt(bytes, from, to));
      return;
    }
    System.arraycopy(bytes, from, raw, rawLength, length);
    rawLength += length;
  }

  /** A whole body: an event stream sent as JSON is named as such. */
  private int decideBody(byte[] buf, int from, int to) {
    while (from < to && isJsonBlank(buf[from])) from++;
    if (from == to) return from;
    byte first = buf[from];
    if (first == 'd' || first == ':') {
      fail(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE, "the body is an event stream (it starts with '"
          + (first == 'd' ? "data:" : ":") + "') but its Content-Type is '" + contentType + "'; an event stream must be "
          + "sent as text/event-stream");
    }
    mode = JSON_DATA;
    return from;
  }

  private static boolean isJsonBlank(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private void feedJson(byte[] bytes, int from, int to) throws IOException {
    feeder.feedInput(bytes, from, to);
    fed += to - from;
    drain();
  }

  private void drain() throws IOException {
    JsonToken token;
    while ((token = json.nextToken()) != JsonToken.NOT_AVAILABLE && token != null) {
      if (failure != null) return;
      token(token);
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
      fail(StreamFailure.Cause.MALFORMED, framer == null ? "the body holds more than one JSON value"
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
            choice = true;
          }
        }
        case CHOICE -> child = "delta".equals(field) || "message".equals(field) ? Context.DELTA : null;
        case TOOL_CALLS -> {
          child = Context.TOOL_CALL;
          toolIndex = ++toolPosition;
        }
        case DATA -> embeddings++; // an embedding's vector is skipped unread
        case TOOL_CALL -> child = "function".equals(field) ? Context.FUNCTION : null;
        case USAGE -> child = switch (field) {
          case "completion_tokens_details" -> Context.COMPLETION_DETAILS;
          case "prompt_tokens_details" -> Context.PROMPT_DETAILS;
          default -> null;
        };
        default -> child = null;
      }
      if (child == Context.USAGE) {
        usage = true;
        promptTokens = -1;
        completionTokens = -1;
        reasoningTokens = -1;
        cachedTokens = -1;
      }
    } else if (parent == Context.TOP && "choices".equals(field)) {
      child = Context.CHOICES;
    } else if (parent == Context.DELTA && "tool_calls".equals(field)) {
      child = Context.TOOL_CALLS;
      toolPosition = -1;
    } else if (parent == Context.TOP && "data".equals(field)) {
      child = Context.DATA;
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
          case "content" -> jsonText(RequestTrace.CONTENT);
          case "reasoning_content", "reasoning" -> jsonText(RequestTrace.REASONING);
          default -> { }
        }
      }
      case CHOICE -> {
        if ("text".equals(field)) {
          jsonText(RequestTrace.CONTENT);
        } else if ("finish_reason".equals(field)) {
          finishReason = json.getText();
        }
      }
      case FUNCTION -> {
        otherFields = true;
        boolean name = "name".equals(field);
        if ((name || "arguments".equals(field)) && json.getTextLength() > 0) {
          kind |= RequestTrace.CONTENT;
          toolCall = true;
          recorder.appendToolCall(Math.max(0, toolIndex), name, json.getTextCharacters(), json.getTextOffset(),
              json.getTextLength());
        }
      }
      case TOP -> {
        if ("object".equals(field)) {
          objectIsError = textIs("error");
        } else if ("error".equals(field) || "message".equals(field) && objectIsError) {
          errorMessage = Excerpt.of(json.getText(), EXCERPT * 2);
        }
      }
      case ERROR -> {
        if ("message".equals(field)) errorMessage = Excerpt.of(json.getText(), EXCERPT * 2);
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
  private void jsonText(int textKind) throws IOException {
    int length = json.getTextLength();
    if (length == 0) return;
    noteText(textKind);
    text(textKind, json.getTextCharacters(), json.getTextOffset(), length);
  }

  private void text(int textKind, char[] chars, int offset, int length) {
    kind |= textKind;
    if (textKind == RequestTrace.CONTENT) {
      contentChars += length;
      recorder.appendContent(chars, offset, length);
    } else {
      reasoningChars += length;
      recorder.appendReasoning(chars, offset, length);
    }
  }

  private void number() throws IOException {
    switch (stack[depth - 1]) {
      case USAGE -> {
        switch (field) {
          case "prompt_tokens" -> promptTokens = count();
          case "completion_tokens" -> completionTokens = count();
          default -> { }
        }
      }
      case COMPLETION_DETAILS -> {
        if ("reasoning_tokens".equals(field)) reasoningTokens = count();
      }
      case PROMPT_DETAILS -> {
        if ("cached_tokens".equals(field)) cachedTokens = count();
      }
      case TIMINGS -> {
        otherFields = true;
        recorder.timing(field, json.getDoubleValue());
      }
      case TOOL_CALL -> {
        otherFields = true;
        if ("index".equals(field)) toolIndex = count();
      }
      default -> { }
    }
  }

  /** A token count; one that is negative or too large for an int counts as absent. */
  private int count() throws IOException {
    if (json.currentToken() != JsonToken.VALUE_NUMBER_INT || json.getNumberType() != JsonParser.NumberType.INT) return -1;
    return Math.max(-1, json.getIntValue());
  }

  private void notAnObject() {
    fail(StreamFailure.Cause.MALFORMED, (framer == null ? "the body is not a JSON object: " : "an event is not a JSON object: ")
        + lastExcerpt());
  }

  // ---- failures ----

  private void fail(JsonProcessingException e) {
    String detail = e.getOriginalMessage();
    if (detail != null && detail.startsWith("Invalid UTF-8")) {
      fail(StreamFailure.Cause.INVALID_UTF8, "the stream is not valid UTF-8: " + firstLine(detail));
    } else {
      fail(StreamFailure.Cause.MALFORMED, (framer == null ? "the body is not JSON: " : "an event is not JSON: ")
          + firstLine(detail) + "; data: " + lastExcerpt());
    }
  }

  private void fail(StreamFailure.Cause cause, String message) {
    if (failure == null) failure = new StreamFailure(cause, 200, message);
  }

  private String lastExcerpt() {
    return lastInput == null ? "" : excerpt(lastInput, lastFrom, lastTo);
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
  private static String excerpt(byte[] bytes, int from, int to) {
    int length = Math.min(to - from, EXCERPT * 4);
    String text = new String(bytes, from, length, StandardCharsets.UTF_8);
    return Excerpt.of(PER_RESPONSE.matcher(text).replaceAll("\"$1\":…"), EXCERPT);
  }
}
