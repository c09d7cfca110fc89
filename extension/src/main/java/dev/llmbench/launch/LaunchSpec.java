package dev.llmbench.launch;

import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.startup.ServerLaunchException;
import dev.llmbench.internal.startup.ServerLog;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A server the run starts itself, as a process on this machine.
 *
 * @param command   what to run; may hold {@code ${port}}
 * @param logFile   where its output goes; empty for {@code <report dir>/server-<port>.log}
 * @param stopGrace between SIGTERM and SIGKILL when the run ends
 * @param candidate the candidate it is, when it is one of several launched in turn: its log is
 *                  {@code server-<candidate>.log}, as they may share a port
 */
record LaunchSpec(LaunchCommand command, Optional<Path> logFile, Duration stopGrace, Optional<String> candidate)
    implements ServerStart {

  LaunchSpec(LaunchCommand command, Optional<Path> logFile, Duration stopGrace) {
    this(command, logFile, stopGrace, Optional.empty());
  }

  /** The same launch as candidate {@code name}, its serve parameters applied to its command ({@link ServeArgs}). */
  LaunchSpec serving(String name, Map<String, String> serve) {
    return new LaunchSpec(new LaunchCommand(ServeArgs.apply(command.command(), serve), command.workingDir(),
        command.environment()), logFile, stopGrace, Optional.of(name));
  }

  /**
   * {@code ${java}} and {@code ${classpath}}: this JVM's {@code java} and class path, to launch a server written in
   * Java from the test's own classes (the embedded engine as a process of its own).
   */
  static Map<String, String> jvm() {
    return Map.of("java", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "classpath", System.getProperty("java.class.path"));
  }

  /** Runs the command, {@code ${port}} a free port of this machine; the server then listens at 127.0.0.1 there. */
  @Override
  public Started start(URI baseUrl, Path reportDir, BenchListener listener) {
    String port = command.placeholders().contains("port") ? Integer.toString(LaunchCommand.freeLocalPort()) : null;
    if (port == null && baseUrl == null) {
      throw new ServerLaunchException("the launch command has no ${port} and llmbench.base-url is unset, so LLMBench "
          + "cannot know where the server listens; add --port ${port} (or the engine's own flag) to the command, or "
          + "set llmbench.base-url", null);
    }
    Map<String, String> values = new java.util.HashMap<>(jvm());
    if (port != null) values.put("port", port);
    LaunchCommand resolved = command.resolve(values);
    Path log = logFile.orElse(reportDir.resolve("server-" + candidate.orElse(port == null ? "launched" : port) + ".log"));
    LaunchedServer process = LaunchedServer.launch(resolved, log, ServerLog.DEFAULT_RECENT_LINES, stopGrace);
    listener.serverLaunched(resolved.describe(), process.pid(), log);
    return new Started(process, baseUrl != null ? baseUrl : URI.create("http://127.0.0.1:" + port));
  }
}
