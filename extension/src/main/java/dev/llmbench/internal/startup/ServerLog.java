package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A server's log followed as it is written: its last lines for error messages and the startup phases it
 * shows. Either the log of a server LLMBench launched, or a log file the user names for a server started
 * some other way.
 */
@API(status = INTERNAL)
public final class ServerLog implements AutoCloseable {

  public static final int DEFAULT_RECENT_LINES = 30;
  static final Duration POLL = Duration.ofMillis(100);

  private final RecentLines recent;
  private final StartupPhases phases;
  private final LogTail tail;

  private ServerLog(Path file, boolean existingIsBacklog, StartupPhases phases, int recentLines) {
    this.recent = new RecentLines(recentLines);
    this.phases = phases;
    this.tail = LogTail.follow(file, POLL, existingIsBacklog, (line, overwritable) -> {
      recent.add(StartupPhases.ANSI.matcher(line.text()).replaceAll(""), overwritable);
      phases.accept(line);
    });
  }

  /**
   * Follows a log file written by a server started some other way, from its first line; lines already
   * there are read at once, so the phases they show have no time of their own.
   */
  public static ServerLog follow(Path file) {
    return new ServerLog(file, true, StartupPhases.fromLog(), DEFAULT_RECENT_LINES);
  }

  /** Follows the log of a server launched at {@code launchedAtNanos}; nothing in it is backlog. */
  public static ServerLog ofLaunched(Path file, long launchedAtNanos, int recentLines) {
    return new ServerLog(file, false, StartupPhases.fromLaunch(launchedAtNanos), recentLines);
  }

  public Path file() {
    return tail.file();
  }

  /** The phases so far, the current one timed up to now. */
  public PhaseHistory phases() {
    return phases.snapshot(System.nanoTime());
  }

  /** The last lines read, oldest first. */
  public List<String> recentLines() {
    return recent.lines();
  }

  /** Reads what is in the file now; with {@code writerDone}, also a last line without a line end. */
  public void drain(boolean writerDone) {
    tail.drain(writerDone);
  }

  @Override
  public void close() {
    tail.close();
  }
}
