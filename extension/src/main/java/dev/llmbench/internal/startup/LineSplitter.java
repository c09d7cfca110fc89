package dev.llmbench.internal.startup;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Cuts a byte stream into UTF-8 lines at {@code \n}, {@code \r\n} or a lone {@code \r}. A lone
 * {@code \r} is how progress bars (tqdm in vLLM and SGLang) redraw a line, so such a line is marked
 * as one the next may overwrite. Lines longer than the cap are cut, so a binary blob cannot fill memory.
 */
final class LineSplitter {

  interface Sink {
    void line(String text, boolean overwritable);
  }

  private final int maxLineBytes;
  private byte[] buf = new byte[256];
  private int len;
  private boolean cut;
  private boolean pendingCr;

  LineSplitter(int maxLineBytes) {
    this.maxLineBytes = maxLineBytes;
  }

  void feed(byte[] bytes, int off, int count, Sink sink) {
    for (int i = off; i < off + count; i++) {
      byte b = bytes[i];
      if (pendingCr) {
        pendingCr = false;
        if (b == '\n') {
          emit(false, sink);
          continue;
        }
        emit(true, sink);
      }
      if (b == '\n') emit(false, sink);
      else if (b == '\r') pendingCr = true;
      else append(b);
    }
  }

  /** Emits a last line that has no line end: only once the writer is known to be done. */
  void finish(Sink sink) {
    if (pendingCr || len > 0 || cut) emit(false, sink);
    pendingCr = false;
  }

  private void append(byte b) {
    if (len == maxLineBytes) {
      cut = true;
      return;
    }
    if (len == buf.length) buf = Arrays.copyOf(buf, Math.min(maxLineBytes, buf.length * 2));
    buf[len++] = b;
  }

  private void emit(boolean overwritable, Sink sink) {
    // A redraw that starts with \r leaves an empty line before it: nothing to keep.
    if (len > 0 || cut || !overwritable) {
      String text = new String(buf, 0, len, StandardCharsets.UTF_8);
      sink.line(cut ? text + " ...(line cut)" : text, overwritable);
    }
    len = 0;
    cut = false;
  }
}
