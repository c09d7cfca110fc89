package dev.llmbench.internal.launch;

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

  ServerExitedException(LaunchCommand command, int exitCode, Duration after, Path logFile, List<String> lastLines,
      PhaseHistory phases) {
    super(message(command, exitCode, after, logFile, lastLines, phases));
    this.exitCode = exitCode;
    this.lastLines = List.copyOf(lastLines);
  }

  private static String message(LaunchCommand command, int exitCode, Duration after, Path logFile,
      List<String> lastLines, PhaseHistory phases) {
    StringBuilder s = new StringBuilder("the server `").append(command.describe()).append("` exited with ")
        .append(ServerProcess.describeExit(exitCode)).append(' ').append(PhaseHistory.seconds(after))
        .append(" after launch, before it was ready");
    if (!phases.isEmpty()) s.append(" (").append(phases.ended().describe()).append(')');
    if (lastLines.isEmpty()) {
      s.append(". It wrote nothing to its log ").append(logFile).append('.');
    } else {
      s.append(". Last ").append(lastLines.size()).append(lastLines.size() == 1 ? " line" : " lines")
          .append(" of its log ").append(logFile).append(':');
      for (String line : lastLines) s.append("\n  | ").append(line);
    }
    return s.toString();
  }

  public int exitCode() {
    return exitCode;
  }

  public List<String> lastLines() {
    return lastLines;
  }
}
