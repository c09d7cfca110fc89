package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/** A launched server exited before it was ready; the message carries its exit code and the last lines of its log. */
@API(status = INTERNAL)
public final class ServerExitedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int exitCode;
  private final List<String> lastLines;

  /**
   * @param what what exited, e.g. {@code the server `vllm serve ...`} or {@code the container `image cmd`}
   * @param fix  what to do about it, appended after the log lines; empty for nothing
   */
  public ServerExitedException(String what, int exitCode, Duration after, Path logFile, List<String> lastLines,
      PhaseHistory phases, String fix) {
    super(message(what, exitCode, after, logFile, lastLines, phases, fix));
    this.exitCode = exitCode;
    this.lastLines = List.copyOf(lastLines);
  }

  private static String message(String what, int exitCode, Duration after, Path logFile,
      List<String> lastLines, PhaseHistory phases, String fix) {
    StringBuilder s = new StringBuilder(what).append(" exited with ")
        .append(describeExit(exitCode)).append(' ').append(PhaseHistory.seconds(after))
        .append(" after launch, before it was ready");
    if (!phases.isEmpty()) s.append(" (").append(phases.ended().describe()).append(')');
    if (lastLines.isEmpty()) {
      s.append(". It wrote nothing to its log ").append(logFile).append('.');
    } else {
      s.append(". Last ").append(lastLines.size()).append(lastLines.size() == 1 ? " line" : " lines")
          .append(" of its log ").append(logFile).append(':');
      for (String line : lastLines) s.append("\n  | ").append(line);
    }
    if (!fix.isEmpty()) s.append(lastLines.isEmpty() ? " " : "\n").append(fix);
    return s.toString();
  }

  /** {@code exit code 1}, {@code exit code 137 (killed by signal 9)}: of a process or a container alike. */
  public static String describeExit(int code) {
    return code > 128 && code < 128 + 65 ? "exit code " + code + " (killed by signal " + (code - 128) + ")" : "exit code " + code;
  }

  public int exitCode() {
    return exitCode;
  }

  public List<String> lastLines() {
    return lastLines;
  }
}
