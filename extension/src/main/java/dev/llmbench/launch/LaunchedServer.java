package dev.llmbench.launch;

import dev.llmbench.internal.startup.PhaseHistory;
import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerExitedException;
import dev.llmbench.internal.startup.ServerLaunchException;
import dev.llmbench.internal.startup.ServerLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An inference server LLMBench started: the process, its log followed for startup phases and last lines,
 * and the stop at the end. The readiness wait calls {@link #checkRunning} at each probe, so a server that
 * dies while loading fails the wait at once with its exit code and log, not after the readiness timeout.
 */
final class LaunchedServer implements RunningServer, AutoCloseable {

  private final ServerProcess process;
  private final ServerLog log;
  private final Duration stopGrace;

  private LaunchedServer(ServerProcess process, ServerLog log, Duration stopGrace) {
    this.process = process;
    this.log = log;
    this.stopGrace = stopGrace;
  }

  /**
   * Starts {@code command}, its stdout and stderr going to {@code logFile} (replaced).
   *
   * @param recentLines how many last log lines an early-exit message shows
   * @param stopGrace   how long {@link #stop} waits after SIGTERM before SIGKILL
   * @throws ServerLaunchException when the program cannot be started
   */
  public static LaunchedServer launch(LaunchCommand command, Path logFile, int recentLines, Duration stopGrace) {
    if (stopGrace.isNegative()) throw new IllegalArgumentException("the stop grace period must not be negative: " + stopGrace);
    ServerProcess process = ServerProcess.start(command, logFile);
    return new LaunchedServer(process, ServerLog.ofLaunched(logFile, process.launchedAtNanos(), recentLines), stopGrace);
  }

  public static LaunchedServer launch(LaunchCommand command, Path logFile) {
    return launch(command, logFile, ServerLog.DEFAULT_RECENT_LINES, ServerProcess.DEFAULT_STOP_GRACE);
  }

  /**
   * Returns quietly while the server runs.
   *
   * @throws ServerExitedException when it has exited, with its exit code and the last lines of its log
   */
  @Override
  public void checkRunning() {
    if (process.isAlive()) return;
    log.drain(true); // it has exited: everything it wrote is in the file now
    throw new ServerExitedException("the server `" + process.command().describe() + "`", process.exitCode().orElse(-1),
        process.sinceLaunch(), process.logFile(), log.recentLines(), log.phases(), "");
  }

  public boolean isRunning() {
    return process.isAlive();
  }

  @Override
  public ServerLog log() {
    return log;
  }

  /** The startup phases its log has shown so far; the current one timed up to now. */
  public PhaseHistory phases() {
    return log.phases();
  }

  @Override
  public Duration sinceLaunch() {
    return process.sinceLaunch();
  }

  public List<String> recentLines() {
    return log.recentLines();
  }

  public Path logFile() {
    return process.logFile();
  }

  public long pid() {
    return process.pid();
  }

  public LaunchCommand command() {
    return process.command();
  }

  /** Stops the process tree (see {@link ServerProcess#stop}) and reads the rest of its log; idempotent. */
  public ServerProcess.Stopped stop() {
    try {
      return process.stop(stopGrace);
    } finally {
      log.close();
    }
  }

  @Override
  public String describe() {
    return process.command().describe();
  }

  @Override
  public String stopAndDescribe() {
    return stop().toString();
  }

  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return process.toString();
  }
}
