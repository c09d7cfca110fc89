package dev.llmbench.internal.client;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Splits a {@code text/event-stream} into events as its bytes arrive, on any read boundary, with no String
 * per line and no copy: data values go to the {@link Sink} as ranges of the caller's array. Follows the
 * WHATWG event-stream grammar: lines end in CRLF, LF or CR; a line starting with {@code :} is a comment;
 * one space after the colon is dropped; a data field without a colon has an empty value; the data lines of
 * one event are joined with LF; a blank line dispatches an event that had data; {@code event}, {@code id}
 * and {@code retry} fields are skipped, however long. A leading UTF-8 byte order mark is skipped.
 *
 * <p>Bytes outside data values are not decoded: only data reaches the caller, which validates it.
 * Not thread-safe: one instance per stream, fed by one thread at a time.
 */
final class SseFramer {

  /** Receives the data of each event. */
  interface Sink {
    /** A data line starts; every data line of an event after the first is joined to the last by LF. */
    void dataLine() throws IOException;

    /** Part of the current data line's value: {@code bytes[from, to)}, never empty. */
    void data(byte[] bytes, int from, int to) throws IOException;

    /** A blank line ended an event that had at least one data line; {@code arrivalNanos} of the read. */
    void dispatch(long arrivalNanos) throws IOException;
  }

  private static final int LINE_START = 0;
  private static final int FIELD = 1;
  private static final int AFTER_DATA_COLON = 2;
  private static final int DATA = 3;
  private static final int SKIP_LINE = 4;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final byte CR = '\r';
  private static final byte LF = '\n';
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
  private static final byte[] DATA_NAME = {'d', 'a', 't', 'a'};

  private final Sink sink;
  private int state = LINE_START;
  /** The last line ended in CR: an LF that comes next (maybe in the next read) belongs to it. */
  private boolean afterCr;
  /** Bytes of the field name read so far, while they still spell a prefix of "data"; -1 once they cannot. */
  private int fieldMatch;
  private boolean eventHasData;
  /** Bytes of a leading byte order mark seen so far; -1 once past the start of the stream. */
  private int bomMatch;
  private long bytes;

  SseFramer(Sink sink) {
    this.sink = sink;
  }

  /** Whether bytes of an event have been read that no blank line has ended yet. */
  boolean inEvent() {
    return eventHasData || state != LINE_START;
  }

  /** Whether at least one data line of the event in progress has been read. */
  boolean eventHasData() {
    return eventHasData;
  }

  long bytes() {
    return bytes;
  }

  /** Reads {@code buf[from, to)}, which arrived at {@code nowNanos}. */
  void feed(byte[] buf, int from, int to, long nowNanos) throws IOException {
    bytes += to - from;
    int i = from;
    if (bomMatch >= 0) i = skipBom(buf, i, to);
    while (i < to) {
      switch (state) {
        case DATA -> {
          int end = lineEnd(buf, i, to);
          if (end > i) sink.data(buf, i, end);
          if (end == to) return;
          i = endLine(buf[end], end);
        }
        case LINE_START -> {
          byte b = buf[i];
          if (afterCr) {
            afterCr = false;
            if (b == LF) {
              i++;
              continue;
            }
          }
          if (b == LF || b == CR) {
            afterCr = b == CR;
            i++;
            if (eventHasData) {
              eventHasData = false;
              sink.dispatch(nowNanos);
            }
          } else if (b == ':') {
            state = SKIP_LINE;
            i++;
          } else {
            state = FIELD;
            fieldMatch = 0;
          }
        }
        case FIELD -> i = field(buf, i, to);
        case AFTER_DATA_COLON -> {
          state = DATA;
          if (buf[i] == ' ') i++;
        }
        default -> { // SKIP_LINE
          int end = lineEnd(buf, i, to);
          if (end == to) return;
          i = endLine(buf[end], end);
        }
      }
    }
  }

  private int skipBom(byte[] buf, int i, int to) {
    while (i < to && bomMatch < BOM.length && buf[i] == BOM[bomMatch]) {
      bomMatch++;
      i++;
    }
    if (bomMatch == BOM.length || i < to) {
      // Part of a mark and then something else: not a mark but broken UTF-8; the first line is skipped.
      if (bomMatch > 0 && bomMatch < BOM.length) state = SKIP_LINE;
      bomMatch = -1;
    }
    return i;
  }

  /** Reads a field name; decides whether the line is data. */
  private int field(byte[] buf, int i, int to) throws IOException {
    while (i < to) {
      byte b = buf[i];
      if (b == ':') {
        boolean data = fieldMatch == DATA_NAME.length;
        state = data ? AFTER_DATA_COLON : SKIP_LINE;
        if (data) startDataLine();
        return i + 1;
      }
      if (b == LF || b == CR) {
        // A field with no colon has an empty value: "data" alone is an empty data line.
        if (fieldMatch == DATA_NAME.length) startDataLine();
        return endLine(b, i);
      }
      fieldMatch = fieldMatch >= 0 && fieldMatch < DATA_NAME.length && b == DATA_NAME[fieldMatch] ? fieldMatch + 1 : -1;
      i++;
    }
    return i;
  }

  private void startDataLine() throws IOException {
    eventHasData = true;
    sink.dataLine();
  }

  private int endLine(byte terminator, int at) {
    state = LINE_START;
    afterCr = terminator == CR;
    return at + 1;
  }

  /** Index of the first CR or LF in {@code buf[i, to)}, or {@code to}; eight bytes a step (lines are long). */
  static int lineEnd(byte[] buf, int i, int to) {
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long word = (long) LONGS.get(buf, i);
      long lf = word ^ 0x0A0A0A0A0A0A0A0AL;
      long cr = word ^ 0x0D0D0D0D0D0D0D0DL;
      // A byte of lf or cr is zero where the word has LF or CR; the lowest flagged byte is exact.
      long found = ((lf - 0x0101010101010101L) & ~lf | (cr - 0x0101010101010101L) & ~cr) & 0x8080808080808080L;
      if (found != 0) return i + (Long.numberOfTrailingZeros(found) >>> 3);
    }
    for (; i < to; i++) {
      byte b = buf[i];
      if (b == LF || b == CR) return i;
    }
    return to;
  }
}
