package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A server the run started and owns: a process or a container (the launch feature's). The endpoint waits
 * for it, reads its startup phases from its log, checks it still runs at each probe and stops it at the end,
 * the same way whichever it is.
 */
@API(status = INTERNAL)
public interface RunningServer {

  /**
   * Returns quietly while the server runs.
   *
   * @throws ServerExitedException when it has exited, with its exit code and the last lines of its log
   */
  void checkRunning();

  Duration sinceLaunch();

  /** Its log as followed: phases and last lines. */
  ServerLog log();

  /** What was started, for messages: the command, or the image and command; never environment values. */
  String describe();

  /** Stops it (idempotent) and says how that ended, e.g. {@code stopped with SIGTERM in 0.2 s, exit code 0}. */
  String stopAndDescribe();
}
