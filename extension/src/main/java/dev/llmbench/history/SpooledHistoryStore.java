package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A store that keeps what it could not send: levels a down or refusing database did not take are appended to a
 * local spool file, and the next append sends them first, with its own, in one go. The run's own files and reports
 * never depend on the database; the caller only warns with the exception's message.
 *
 * <p>The spool is locked for the whole send, so two runs finishing at once do not both send it. A crash between
 * the database's commit and the spool's truncation sends those levels twice.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SpooledHistoryStore implements HistoryStore {

  private final HistoryStore primary;
  private final Path spool;

  /**
   * Sends to {@code primary}, keeping what it refuses in {@code spool}.
   *
   * @param primary the store to send to, usually a {@link JdbcHistoryStore}
   * @param spool   the JSON-lines file of levels not yet sent, e.g. {@code target/llmbench/history-pending.jsonl}
   */
  public SpooledHistoryStore(HistoryStore primary, Path spool) {
    this.primary = primary;
    this.spool = spool;
  }

  /**
   * Sends the spooled levels and these to the primary store; when it fails, keeps these in the spool.
   *
   * @param levels the levels, usually of one run
   * @throws IOException when the primary store failed: the message says how many levels the spool now keeps
   */
  @Override
  public void append(List<LevelRecord> levels) throws IOException {
    Path parent = spool.toAbsolutePath().getParent();
    if (parent != null) Files.createDirectories(parent);
    try (FileChannel channel = FileChannel.open(spool, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      FileLock lock = FileHistoryStore.lock(channel);
      try {
        send(channel, levels);
      } finally {
        lock.release();
      }
    }
  }

  /** Sends what the locked spool holds and these levels, or keeps these in it. */
  private void send(FileChannel channel, List<LevelRecord> levels) throws IOException {
    List<LevelRecord> pending = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    readPending(channel, pending, unreadable);
    List<LevelRecord> all = new ArrayList<>(pending);
    all.addAll(levels);
    try {
      primary.append(all);
    } catch (IOException e) {
      long end = channel.size();
      StringBuilder text = new StringBuilder();
      if (end > 0 && !FileHistoryStore.endsWithNewline(channel, end)) text.append('\n');
      for (LevelRecord level : levels) text.append(HistoryJson.write(level)).append('\n');
      ByteBuffer buffer = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
      while (buffer.hasRemaining()) end += channel.write(buffer, end);
      channel.force(false);
      throw new IOException(e.getMessage() + "; " + JdbcHistoryStore.count(all.size()) + " kept in " + spool
          + " for the next run to send", e);
    }
    channel.truncate(0);
    channel.force(false);
    if (!unreadable.isEmpty()) {
      throw new IOException("sent " + JdbcHistoryStore.count(all.size()) + "; skipped what the spool " + spool + " held unreadable: "
          + String.join("; ", unreadable));
    }
  }

  private void readPending(FileChannel channel, List<LevelRecord> pending, List<String> unreadable) throws IOException {
    long size = channel.size();
    if (size == 0) return;
    ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size));
    while (bytes.hasRemaining()) {
      if (channel.read(bytes, bytes.position()) < 0) break;
    }
    String[] lines = new String(bytes.array(), StandardCharsets.UTF_8).split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) continue;
      try {
        pending.add(HistoryJson.read(lines[i]));
      } catch (IllegalArgumentException e) {
        unreadable.add(spool.getFileName() + " line " + (i + 1) + ": " + e.getMessage());
      }
    }
  }

  /** {@return the primary store's levels, then those still waiting in the spool} */
  @Override
  public HistoryRead read() throws IOException {
    HistoryRead sent = primary.read();
    HistoryRead waiting = new FileHistoryStore(spool).read();
    List<LevelRecord> levels = new ArrayList<>(sent.levels());
    levels.addAll(waiting.levels());
    List<String> skipped = new ArrayList<>(sent.skipped());
    skipped.addAll(waiting.skipped());
    return new HistoryRead(levels, skipped);
  }

  @Override
  public String describe() {
    return primary.describe() + " (unsent levels kept in " + spool + ")";
  }
}
