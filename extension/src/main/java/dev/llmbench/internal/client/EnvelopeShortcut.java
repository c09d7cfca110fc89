package dev.llmbench.internal.client;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.Arrays;

/**
 * The fast path of {@link ChatStreamParser}: token chunks of one stream differ only in their text, as a server
 * writes the same envelope (id, created, model, index, ...) around each. Once the {@link ChunkJsonReader} has
 * read a plain chunk (one non-empty content or reasoning string and nothing else that counts) that came in one
 * slice, its bytes before and after that string become a template; a later event whose data is the same head,
 * a string {@link JsonStringBody} can read, and the same tail must tokenize exactly as that chunk did but for
 * the string, so it is recorded without Jackson. Anything else goes to the reader, whose reading stands.
 *
 * <p>Not thread-safe: one per stream, fed by one thread at a time.
 */
final class EnvelopeShortcut {

  /** Longest event data kept as a template's candidate, or taken by it. */
  private static final int MAX_BYTES = 1 << 16;

  private final StreamRecorder recorder;

  // The template.
  private byte[] head;
  private byte[] tail;
  private int templateKind;

  // The event in progress: its string once it matched the template, decoded and as bytes.
  private char[] pending = new char[64];
  private int pendingLength;
  private byte[] pendingBytes = new byte[64];
  private int pendingBytesLength;
  /** Slices of the event's data so far; a second data line counts as more than one. */
  private int slices;
  /** The event's data while it is all in one slice: the caller's buffer is reused once its read returns. */
  private byte[] eventCopy = new byte[256];
  private int eventLength;
  /** Where the JSON starts in {@link #eventCopy} (after blanks). */
  private int jsonFrom;
  /** Where the chunk's one text string lies in its JSON, if it can become a template: -1 if not. */
  private int textIndex = -1;
  private int textBytes;
  private int textKind;
  private int events;

  EnvelopeShortcut(StreamRecorder recorder) {
    this.recorder = recorder;
  }

  /** Events read without Jackson. */
  int events() {
    return events;
  }

  /** An event starts. */
  void startEvent() {
    slices = 0;
    textIndex = -1;
  }

  /**
   * A slice of the event's data; the first one is taken if it matches the template, and kept as a candidate
   * otherwise.
   *
   * @param open whether the stream may still take events: after a failure, nothing is recorded
   * @return whether the event is taken: its data is complete unless more comes ({@link #replayInto})
   */
  boolean takes(byte[] bytes, int from, int to, boolean open) {
    if (slices++ != 0) return false;
    if (head != null && open && matches(bytes, from, to)) return true;
    keep(bytes, from, to);
    return false;
  }

  /** A second data line: the event is never a template. */
  void moreLines() {
    slices = 2;
  }

  /** The event's JSON starts {@code offset} bytes into its first slice. */
  void jsonAt(int offset) {
    jsonFrom = offset;
  }

  /** The taken event turned out longer than the template (a second line, or more bytes): the reader reads it all. */
  void replayInto(ChunkJsonReader reader) throws IOException {
    reader.feed(head, 0, head.length);
    reader.feed(pendingBytes, 0, pendingBytesLength);
    reader.feed(tail, 0, tail.length);
  }

  /** What the reader records for the template's chunk, with the taken event's text; it arrived at {@code arrivalNanos}. */
  void end(long arrivalNanos) {
    events++;
    int kind = 0;
    int contentChars = 0;
    int reasoningChars = 0;
    if (pendingLength > 0) {
      kind = templateKind;
      if (kind == TokenChunks.CONTENT) {
        contentChars = pendingLength;
        recorder.appendContent(pending, 0, pendingLength);
      } else {
        reasoningChars = pendingLength;
        recorder.appendReasoning(pending, 0, pendingLength);
      }
    }
    recorder.event();
    recorder.choice(arrivalNanos, kind, false);
    recorder.chars(contentChars, reasoningChars);
  }

  /**
   * The reader is on the chunk's first text string, of {@code kind}, which started at {@code chunkStart} of its
   * input: notes where the string's bytes lie in the event's slice, if {@link JsonStringBody} reads them as
   * exactly the text Jackson read.
   */
  void noteText(JsonParser json, long chunkStart, int kind) throws IOException {
    if (slices != 1) return;
    long offset = json.currentTokenLocation().getByteOffset() - chunkStart;
    long end = json.currentLocation().getByteOffset() - chunkStart - 1; // the closing quote
    if (offset < 0 || end < offset || jsonFrom + end >= eventLength) return;
    int at = jsonFrom + (int) offset;
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

  /** The reader recorded a plain chunk: if it came in one slice, its envelope becomes the template. */
  void learn() {
    if (textIndex < 0 || slices != 1) return;
    int at = jsonFrom + textIndex;
    int end = at + textBytes;
    if (at <= 0 || end >= eventLength || eventCopy[at - 1] != '"' || eventCopy[end] != '"') return;
    head = Arrays.copyOfRange(eventCopy, 0, at);
    tail = Arrays.copyOfRange(eventCopy, end, eventLength);
    templateKind = textKind;
  }

  private boolean matches(byte[] bytes, int from, int to) {
    int textFrom = from + head.length;
    int length = to - tail.length - textFrom;
    if (length < 0 || length > MAX_BYTES
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
    return true;
  }

  private void keep(byte[] bytes, int from, int to) {
    int length = to - from;
    if (length > MAX_BYTES) {
      slices = 2; // too long to keep: never a template
      return;
    }
    if (length > eventCopy.length) eventCopy = new byte[Math.max(length, eventCopy.length * 2)];
    System.arraycopy(bytes, from, eventCopy, 0, length);
    eventLength = length;
  }

  private void roomForText(int bytes) {
    if (bytes <= pending.length) return;
    pending = new char[Math.max(bytes, pending.length * 2)];
    pendingBytes = new byte[pending.length];
  }
}
