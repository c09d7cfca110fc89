package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The embedded history: an append-only file, one JSON line per level ({@code .jsonl}). Appends take an exclusive
 * lock on the file, so several JVMs (parallel suites, forked test JVMs) can append at once and every line lands
 * whole. A line that is corrupt or was cut short by a crash is skipped and reported on reading, never the rest;
 * the next append starts on a fresh line after it.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class FileHistoryStore implements HistoryStore {

  private final Path file;

  /**
   * A store in {@code file}, created (with its directories) on the first append.
   *
   * @param file the JSON-lines file, e.g. {@code .llmbench/history.jsonl}
   */
  public FileHistoryStore(Path file) {
    this.file = file;
  }

  @Override
  public void append(List<LevelRecord> levels) throws IOException {
    if (levels.isEmpty()) return;
    StringBuilder text = new StringBuilder();
    for (LevelRecord level : levels) text.append(HistoryJson.write(level)).append('\n');
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) Files.createDirectories(parent);
    // Not APPEND (Java refuses it with READ): under the exclusive lock, the end of the file is where to write.
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.READ)) {
      FileLock lock = lock(channel);
      try {
        write(channel, bytes);
      } finally {
        lock.release();
      }
    }
  }

  /** Writes at the end of the file, which the caller has locked. */
  private static void write(FileChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    long end = channel.size();
    if (end > 0 && !endsWithNewline(channel, end)) {
      // A crash cut the last line short: this run's lines start on their own line, and the cut one is skipped.
      buffer = ByteBuffer.allocate(bytes.length + 1).put((byte) '\n').put(bytes).flip();
    }
    while (buffer.hasRemaining()) end += channel.write(buffer, end);
    channel.force(false);
  }

  /**
   * Waits for the exclusive lock. Another JVM's lock blocks in {@code lock()}; this JVM's own (another thread
   * appending to the same file) throws OverlappingFileLockException, so that one is waited for here.
   */
  static FileLock lock(FileChannel channel) throws IOException {
    while (true) {
      try {
        return channel.lock();
      } catch (OverlappingFileLockException e) {
        try {
          Thread.sleep(1);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for the history file's lock", interrupted);
        }
      }
    }
  }

  static boolean endsWithNewline(FileChannel channel, long size) throws IOException {
    ByteBuffer last = ByteBuffer.allocate(1);
    channel.read(last, size - 1);
    return last.get(0) == '\n';
  }

  @Override
  public HistoryRead read() throws IOException {
    List<LevelRecord> levels = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    // InputStreamReader replaces bytes that are not UTF-8, so a damaged line fails alone, as JSON.
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank()) continue;
        try {
          levels.add(HistoryJson.read(line));
        } catch (IllegalArgumentException e) {
          skipped.add(file.getFileName() + " line " + number + ": " + e.getMessage());
        }
      }
    } catch (NoSuchFileException e) {
      return new HistoryRead(List.of(), List.of());
    }
    // Appends land in the order runs finished; analysis wants the order they started.
    levels.sort(Comparator.comparing((LevelRecord l) -> l.run().time()));
    return new HistoryRead(levels, skipped);
  }

  @Override
  public String describe() {
    return file.toString();
  }
}
