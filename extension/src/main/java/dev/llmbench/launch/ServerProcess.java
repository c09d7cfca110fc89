package dev.llmbench.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * An inference server running as a child process, its stdout and stderr written to one log file by the
 * operating system (so a slow reader can never block the server, and the log survives the JVM).
 *
 * <p>Stopping reaches the whole process tree: a wrapper ({@code sh -c}, {@code uv run}, vLLM's own
 * engine-core processes) must not leave the real server running. Every wait is bounded.
 */
final class ServerProcess implements AutoCloseable {

  /** After SIGKILL, how long to wait for the kernel to reap; a process in uninterruptible sleep may outlast it. */
  static final Duration KILL_WAIT = Duration.ofSeconds(5);
  private static final Duration POLL = Duration.ofMillis(20);
  private static final Duration REAP_WAIT = Duration.ofSeconds(1);
  private static final Path PROC_SELF = Path.of("/proc/self");
  /** vLLM with several engine and worker processes may take seconds to shut down cleanly. */
  public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(30);
  /** At JVM exit (Ctrl+C, a killed build) there is little time: a short grace, then SIGKILL. */
  static final Duration EXIT_STOP_GRACE = Duration.ofSeconds(3);

  /** How a stop ended. */
  public enum Ending {
    /** Every process had exited before the stop. */
    EXITED_BEFORE_STOP,
    /** Every process exited within the grace period after SIGTERM. */
    TERMINATED,
    /** Something outlived the grace period and was sent SIGKILL. */
    KILLED,
    /** Something outlived even SIGKILL and the wait after it: its pids are in {@link Stopped#survivors}. */
    SURVIVED
  }

  /**
   * What stopping did.
   *
   * @param ending    how it ended
   * @param exitCode  the launched process's exit code, when it has exited
   * @param took      from the stop request to the end of the last wait
   * @param survivors pids still alive after everything (only with {@link Ending#SURVIVED})
   */
  public record Stopped(Ending ending, OptionalInt exitCode, Duration took, List<Long> survivors) {

    public Stopped {
      survivors = List.copyOf(survivors);
    }

    @Override
    public String toString() {
      String code = exitCode.isPresent() ? ", " + describeExit(exitCode.getAsInt()) : "";
      return switch (ending) {
        case EXITED_BEFORE_STOP -> "had already exited" + code;
        case TERMINATED -> "stopped with SIGTERM in " + PhaseHistory.seconds(took) + code;
        case KILLED -> "did not stop on SIGTERM; killed with SIGKILL after " + PhaseHistory.seconds(took) + code;
        case SURVIVED -> "could not be stopped: pids " + survivors + " still alive after SIGKILL";
      };
    }
  }

  private final LaunchCommand command;
  private final Path logFile;
  private final Process process;
  private final long launchedAtNanos;
  // Descendants seen so far: once a wrapper exits, its children are re-parented and no longer its descendants.
  private final Set<ProcessHandle> seen = new LinkedHashSet<>();
  private final Thread exitHook;
  private Stopped stopped;

  private ServerProcess(LaunchCommand command, Path logFile, Process process, long launchedAtNanos) {
    this.command = command;
    this.logFile = logFile;
    this.process = process;
    this.launchedAtNanos = launchedAtNanos;
    // A run that ends without closing its store (Ctrl+C, a killed fork) must not leave a GPU server behind.
    this.exitHook = new Thread(() -> stop(EXIT_STOP_GRACE), "llmbench-stop-server " + process.pid());
    Runtime.getRuntime().addShutdownHook(exitHook);
  }

  /**
   * Starts {@code command} with its output (both streams) written to {@code logFile}, which is
   * replaced. {@code PYTHONUNBUFFERED=1} is set unless the command sets it, so Python servers (vLLM,
   * SGLang) write each line when they print it, not when a buffer fills.
   *
   * @throws ServerLaunchException when the program cannot be started (not found, not executable, bad directory)
   */
  public static ServerProcess start(LaunchCommand command, Path logFile) {
    try {
      Path parent = logFile.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
    } catch (IOException e) {
      throw new ServerLaunchException("cannot create the directory of the server log " + logFile + ": " + e, e);
    }
    ProcessBuilder builder = new ProcessBuilder(command.command())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(logFile.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    command.workingDir().ifPresent(dir -> builder.directory(dir.toFile()));
    builder.environment().putIfAbsent("PYTHONUNBUFFERED", "1");
    builder.environment().putAll(command.environment());
    long now = System.nanoTime();
    try {
      return new ServerProcess(command, logFile, builder.start(), now);
    } catch (IOException e) {
      throw new ServerLaunchException("could not start the server `" + command.describe() + "`"
          + command.workingDir().map(d -> " in " + d.toAbsolutePath()).orElse("") + ": " + e.getMessage()
          + ". Check that the program is installed and on the PATH, or give its full path.", e);
    }
  }

  private static File nullDevice() {
    return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  public LaunchCommand command() {
    return command;
  }

  public Path logFile() {
    return logFile;
  }

  public long pid() {
    return process.pid();
  }

  public long launchedAtNanos() {
    return launchedAtNanos;
  }

  public Duration sinceLaunch() {
    return Duration.ofNanos(System.nanoTime() - launchedAtNanos);
  }

  /** Whether the launched process is running; also notes its current descendants for {@link #stop}. */
  public boolean isAlive() {
    rememberDescendants();
    return process.isAlive();
  }

  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /**
   * Stops the process tree: SIGTERM to the launched process and every descendant (as Ctrl+C reaches a
   * terminal's whole process group), up to {@code grace} for all to exit, then SIGKILL to what is left
   * and up to {@link #KILL_WAIT} more. Never waits longer than that; a second call returns the first outcome.
   */
  public synchronized Stopped stop(Duration grace) {
    if (stopped != null) return stopped;
    if (Thread.currentThread() != exitHook) {
      try {
        Runtime.getRuntime().removeShutdownHook(exitHook);
      } catch (IllegalStateException e) {
        // The JVM is exiting: the hook runs too, and finds this stop done.
      }
    }
    long begin = System.nanoTime();
    rememberDescendants();
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(process.toHandle());
    tree.addAll(seen);
    List<ProcessHandle> alive = alive(tree);
    if (alive.isEmpty()) {
      return stopped = new Stopped(Ending.EXITED_BEFORE_STOP, exitCode(), Duration.ofNanos(System.nanoTime() - begin), List.of());
    }
    alive.forEach(ProcessHandle::destroy);
    alive = awaitExit(alive, grace);
    Ending ending = Ending.TERMINATED;
    if (!alive.isEmpty()) {
      ending = Ending.KILLED;
      alive.forEach(ProcessHandle::destroyForcibly);
      alive = awaitExit(alive, KILL_WAIT);
      if (!alive.isEmpty()) ending = Ending.SURVIVED;
    }
    List<Long> survivors = alive.stream().map(ProcessHandle::pid).toList();
    awaitReaped();
    return stopped = new Stopped(ending, exitCode(), Duration.ofNanos(System.nanoTime() - begin), survivors);
  }

  @Override
  public void close() {
    stop(DEFAULT_STOP_GRACE);
  }

  /** An exited child is a zombie until the JVM reaps it, and only then has an exit code: a moment, bounded. */
  private void awaitReaped() {
    if (running(process.toHandle())) return;
    try {
      process.waitFor(REAP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void rememberDescendants() {
    seen.removeIf(h -> !running(h));
    process.descendants().forEach(seen::add);
  }

  private static List<ProcessHandle> alive(List<ProcessHandle> handles) {
    return handles.stream().filter(ServerProcess::running).toList();
  }

  private static List<ProcessHandle> awaitExit(List<ProcessHandle> handles, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    List<ProcessHandle> alive = alive(handles);
    while (!alive.isEmpty() && System.nanoTime() < deadline) {
      try {
        TimeUnit.NANOSECONDS.sleep(Math.min(POLL.toNanos(), deadline - System.nanoTime()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      alive = alive(alive);
    }
    return alive;
  }

  /**
   * Alive and not a zombie. A wrapper's orphaned child that has exited stays a zombie until PID 1 reaps
   * it, which in a container may be late or never (a JVM as PID 1 never reaps): that process is done.
   */
  static boolean running(ProcessHandle h) {
    if (!h.isAlive()) return false;
    if (!Files.isDirectory(PROC_SELF)) return true; // no procfs: trust isAlive
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
      int end = stat.lastIndexOf(')'); // the command name may contain spaces and parentheses
      return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'Z';
    } catch (IOException e) {
      return false; // gone between the two checks
    }
  }

  /** {@code exit code 1}, {@code exit code 137 (killed by signal 9)}. */
  public static String describeExit(int code) {
    return code > 128 && code < 128 + 65 ? "exit code " + code + " (killed by signal " + (code - 128) + ")" : "exit code " + code;
  }

  @Override
  public String toString() {
    return "`" + command.describe() + "` (pid " + process.pid() + ")";
  }
}
