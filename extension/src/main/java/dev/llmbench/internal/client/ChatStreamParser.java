package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;

/**
 * Reads an OpenAI-style response body as its bytes arrive: an event stream (chat or completions chunks,
 * {@code [DONE]}) or one whole JSON answer, into what {@link StreamRecorder} keeps. The {@link SseFramer}
 * splits an event stream into events; this class takes each event's data as it comes and hands it to the one
 * reader that fits: a chunk whose envelope repeats the last plain one's to the {@link EnvelopeShortcut}, any
 * other chunk (and a whole JSON body) to the {@link ChunkJsonReader}, and {@code [DONE]} it reads itself.
 *
 * <p>Not thread-safe: one per stream, fed by one thread at a time.
 */
@API(status = INTERNAL)
public final class ChatStreamParser implements SseFramer.Sink {

  private static final byte[] LINE_BREAK = {'\n'};
  private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

  // What the data of the current event is, decided by its first byte that is not blank.
  private static final int UNDECIDED = 0;
  private static final int JSON_DATA = 1;
  private static final int RAW_DATA = 2;
  /** The data so far is the shortcut's template with a string in it: not yet shown to the reader. */
  private static final int SHORTCUT = 3;

  /**
   * Where a direct buffer's bytes are copied to be read: one per thread (an event loop reads many streams), not
   * per stream, whose 8 KB each were a seventh of what a replay at 1,000 requests/s allocated. Reading never
   * keeps a reference to the bytes it is given, so the next copy may overwrite them.
   */
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[8192]);

  private final StreamRecorder recorder;
  private final SseFramer framer;
  private final ChunkJsonReader reader;
  /** Null when every chunk goes to the reader. */
  private final EnvelopeShortcut shortcut;
  private final String contentType;

  // The event in progress.
  private int mode;
  private boolean firstDataLine = true;
  private final byte[] raw = new byte[16];
  private int rawLength;

  private long bodyBytes;

  private ChatStreamParser(StreamRecorder recorder, boolean eventStream, String contentType, boolean shortcut) {
    this.recorder = recorder;
    this.contentType = contentType;
    this.framer = eventStream ? new SseFramer(this) : null;
    this.shortcut = shortcut && eventStream ? new EnvelopeShortcut(recorder) : null;
    this.reader = new ChunkJsonReader(recorder, !eventStream, this.shortcut);
    if (!eventStream) startEvent();
  }

  /** For a {@code text/event-stream} body. */
  public static ChatStreamParser eventStream(StreamRecorder recorder) {
    return new ChatStreamParser(recorder, true, "text/event-stream", true);
  }

  /** For a {@code text/event-stream} body, every event read by Jackson: the reference the shortcut is tested against. */
  public static ChatStreamParser eventStreamWithoutShortcut(StreamRecorder recorder) {
    return new ChatStreamParser(recorder, true, "text/event-stream", false);
  }

  /** For a whole JSON body ({@code stream: false}, or a server that ignored it) sent as {@code contentType}. */
  static ChatStreamParser jsonBody(StreamRecorder recorder, String contentType) {
    return new ChatStreamParser(recorder, false, contentType, false);
  }

  /**
   * The response's status line and headers arrived at {@code nowNanos}: tells the recorder, and gives the parser
   * for its body, or null when the body is no answer to read (a status other than 2xx, or a Content-Type other
   * than an event stream or JSON), which the transport then keeps for the failure's message.
   */
  public static ChatStreamParser forResponse(StreamRecorder recorder, int status, String contentType, long nowNanos) {
    boolean eventStream = HttpText.isMediaType(contentType, "text/event-stream");
    recorder.headers(status, nowNanos, eventStream);
    if (status / 100 != 2) return null;
    if (eventStream) return eventStream(recorder);
    if (contentType.isEmpty() || HttpText.isMediaType(contentType, "application/json")) return jsonBody(recorder, contentType);
    return null;
  }

  /** The failure found so far, or null; once set, further input is ignored. */
  StreamFailure failure() {
    return reader.failure();
  }

  int events() {
    return recorder.events();
  }

  /**
   * Reads {@code buf[from, to)}, which arrived at {@code nowNanos}.
   *
   * @return false once the body is known to be bad: stop reading it
   */
  public boolean feed(byte[] buf, int from, int to, long nowNanos) {
    if (reader.failure() != null) return false;
    try {
      if (framer != null) {
        framer.feed(buf, from, to, nowNanos);
      } else {
        bodyBytes += to - from;
        if (mode == UNDECIDED) from = decideBody(buf, from, to);
        if (from < to && reader.failure() == null) data(buf, from, to);
      }
    } catch (JsonProcessingException e) {
      reader.fail(e);
    } catch (IOException e) {
      fail(StreamFailure.Cause.MALFORMED, e.getMessage());
    }
    return reader.failure() == null;
  }

  /** Reads a buffer's remaining bytes; its position is left as it was. */
  public boolean feed(ByteBuffer buffer, long nowNanos) {
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
    return shortcut == null ? 0 : shortcut.events();
  }

  long bytes() {
    return framer != null ? framer.bytes() : bodyBytes;
  }

  /**
   * The body ended cleanly at {@code nowNanos}. A last event complete but for its blank line still counts;
   * an event cut in half is a failure.
   */
  public RequestTrace finish(long nowNanos) {
    if (reader.failure() == null) {
      try {
        if (framer == null) {
          if (mode == UNDECIDED) {
            fail(StreamFailure.Cause.MALFORMED, "the body is empty");
          } else {
            endChunk(nowNanos);
          }
        } else if (framer.eventHasData()) {
          boolean complete = mode == JSON_DATA ? reader.complete() : mode == SHORTCUT || mode == RAW_DATA && isDone();
          if (complete) {
            dispatch(nowNanos);
          } else {
            recorder.dropEventText();
            fail(StreamFailure.Cause.CUT_MID_STREAM, "the stream ended inside an event");
          }
        }
      } catch (JsonProcessingException e) {
        reader.fail(e);
      } catch (IOException e) {
        fail(StreamFailure.Cause.MALFORMED, e.getMessage());
      }
    }
    return finishWith(nowNanos, reader.failure());
  }

  /** The body ended with {@code cause} at {@code nowNanos} (a timeout, a reset, a cancel). */
  public RequestTrace fail(long nowNanos, StreamFailure cause) {
    if (framer == null || framer.inEvent()) recorder.dropEventText();
    StreamFailure failure = reader.failure();
    return finishWith(nowNanos, failure != null ? failure : cause);
  }

  private RequestTrace finishWith(long nowNanos, StreamFailure cause) {
    reader.close();
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
    if (shortcut != null) shortcut.moreLines();
    if (mode == SHORTCUT) replay();
    if (mode == JSON_DATA) {
      reader.feed(LINE_BREAK, 0, 1);
    } else if (mode == RAW_DATA) {
      appendRaw(LINE_BREAK, 0, 1);
    }
  }

  @Override
  public void data(byte[] bytes, int from, int to) throws IOException {
    reader.quote(bytes, from, to);
    if (shortcut != null && shortcut.takes(bytes, from, to, reader.failure() == null)) {
      mode = SHORTCUT;
      return;
    }
    if (mode == SHORTCUT) replay();
    if (mode == UNDECIDED) {
      int start = from;
      while (from < to && (bytes[from] == ' ' || bytes[from] == '\t')) from++;
      if (from == to) return;
      mode = bytes[from] == '[' ? RAW_DATA : JSON_DATA;
      if (shortcut != null) shortcut.jsonAt(from - start);
    }
    if (mode == JSON_DATA) {
      reader.feed(bytes, from, to);
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
            + ChunkJsonReader.excerpt(raw, 0, rawLength));
        return;
      }
      recorder.markDone();
    } else if (mode == JSON_DATA) {
      endChunk(arrivalNanos);
    } else if (mode == SHORTCUT) {
      shortcut.end(arrivalNanos);
    }
    // An event whose data is blank is no message: skipped, as a keep-alive.
    mode = UNDECIDED;
  }

  // ---- the event in progress ----

  private void startEvent() {
    mode = UNDECIDED;
    rawLength = 0;
    reader.startChunk();
    if (shortcut != null) shortcut.startEvent();
    recorder.markEvent();
  }

  private void endChunk(long arrivalNanos) throws IOException {
    if (reader.end(arrivalNanos) && shortcut != null && reader.plainText()) shortcut.learn();
  }

  /** The shortcut's event turned out not to be the template's: the reader reads it all, from its start. */
  private void replay() throws IOException {
    mode = JSON_DATA;
    shortcut.replayInto(reader);
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
      fail(StreamFailure.Cause.MALFORMED, "an event is neither a JSON object nor [DONE]: "
          + ChunkJsonReader.excerpt(bytes, from, to));
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

  private void fail(StreamFailure.Cause cause, String message) {
    reader.fail(cause, message);
  }
}
