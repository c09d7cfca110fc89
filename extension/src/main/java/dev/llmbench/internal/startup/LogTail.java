package dev.llmbench.internal.startup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Follows a log file as it is written, like {@code tail -F}: from its first byte, through a file that
 * does not exist yet, is truncated or is replaced (rotated). Lines already in the file when following
 * began are marked as backlog. One daemon thread polls; {@link #drain} reads what is there now, on the
 * caller's thread, so a caller that knows the writer has exited gets every line deterministically.
 *
 * <p>Hand-written rather than commons-io's {@code Tailer}, which has no synchronous drain and no backlog mark.
 */
final class LogTail implements AutoCloseable {

  static final int MAX_LINE_BYTES = 16 * 1024;
  private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(2);

  private final Path file;
  /** Receives each line; {@code overwritable} marks a progress-bar redraw (see {@link LineSplitter}). */
  interface Sink {
    void line(LogLine line, boolean overwritable);
  }

  private final Sink sink;
  private final Duration poll;
  private final Object lock = new Object();
  private final Thread thread;
  private long backlogEnd;
  private FileChannel channel;
  private Object fileKey;
  private long position;
  private LineSplitter splitter = new LineSplitter(MAX_LINE_BYTES);
  private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
  private volatile boolean closed;
  private volatile IOException lastError;

  private LogTail(Path file, Duration poll, boolean existingIsBacklog, Sink sink) {
    this.file = file;
    this.poll = poll;
    this.sink = sink;
    this.backlogEnd = existingIsBacklog ? sizeOrZero(file) : 0;
    this.thread = new Thread(this::run, "llmbench-log-tail " + file.getFileName());
    thread.setDaemon(true);
  }

  /**
   * Starts following {@code file}, passing each complete line to {@code sink} (on the tail thread or in
   * {@link #drain}). With {@code existingIsBacklog}, lines already in the file are marked as backlog: for a
   * file someone else's server has been writing; not for the log of a server just launched.
   */
  static LogTail follow(Path file, Duration poll, boolean existingIsBacklog, Sink sink) {
    LogTail tail = new LogTail(file, poll, existingIsBacklog, sink);
    tail.thread.start();
    return tail;
  }

  Path file() {
    return file;
  }

  /** Reads every byte written so far; with {@code writerDone}, also a last line that has no line end. */
  void drain(boolean writerDone) {
    synchronized (lock) {
      try {
        readAvailable();
      } catch (IOException e) {
        lastError = e;
      }
      if (writerDone) splitter.finish((text, overwritable) -> sink.line(new LogLine(text, System.nanoTime(), false), false));
    }
  }

  /** The last error reading the file, if reading it failed (it is retried at each poll). */
  IOException lastError() {
    return lastError;
  }

  private void run() {
    while (!closed) {
      drain(false);
      try {
        TimeUnit.NANOSECONDS.sleep(poll.toNanos());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void readAvailable() throws IOException {
    if (!openIfNeeded()) return;
    if (channel.size() < position) restart(); // truncated in place
    while (true) {
      buffer.clear();
      // Bytes up to backlogEnd were there before following began: read them apart to mark their lines.
      if (position < backlogEnd) buffer.limit((int) Math.min(buffer.capacity(), backlogEnd - position));
      int n = channel.read(buffer, position);
      if (n <= 0) return;
      boolean backlog = position < backlogEnd;
      position += n;
      long now = System.nanoTime();
      splitter.feed(buffer.array(), 0, n, (text, overwritable) -> sink.line(new LogLine(text, now, backlog), overwritable));
    }
  }

  /** Opens the file, or reopens it when it was replaced; false when it does not exist (yet). */
  private boolean openIfNeeded() throws IOException {
    Object key;
    try {
      key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    } catch (NoSuchFileException e) {
      return channel != null && channel.isOpen(); // removed: keep reading what we have open
    }
    if (channel != null && channel.isOpen() && (key == null || Objects.equals(key, fileKey))) return true;
    boolean replaced = channel != null && key != null && !Objects.equals(key, fileKey);
    if (channel != null) channel.close();
    channel = FileChannel.open(file, StandardOpenOption.READ);
    fileKey = key;
    if (replaced) restart();
    return true;
  }

  private void restart() {
    position = 0;
    backlogEnd = 0;
    splitter = new LineSplitter(MAX_LINE_BYTES);
  }

  private static long sizeOrZero(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  /** Stops following after a last read; waits a bounded time for the tail thread. */
  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    thread.interrupt();
    try {
      thread.join(JOIN_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    drain(true);
    synchronized (lock) {
      try {
        if (channel != null) channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException("could not close " + file, e);
      }
    }
  }
}
