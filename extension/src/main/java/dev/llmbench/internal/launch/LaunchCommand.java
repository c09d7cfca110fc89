package dev.llmbench.internal.launch;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * How to start an inference server: its command line (no shell unless the user names one), working
 * directory and extra environment variables.
 *
 * @param command     program and arguments, such as {@code llama-server -m model.gguf --port 8080}
 * @param workingDir  where it runs; empty for the JVM's working directory
 * @param environment variables added to the JVM's own environment
 */
@API(status = INTERNAL)
public record LaunchCommand(List<String> command, Optional<Path> workingDir, Map<String, String> environment) {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.-]+)}");
  private static final int DESCRIBED_CHARS = 300;

  public LaunchCommand {
    command = List.copyOf(command);
    if (command.isEmpty() || command.get(0).isBlank()) {
      throw new IllegalArgumentException("the launch command is empty: name the server program and its arguments, "
          + "e.g. {\"llama-server\", \"-m\", \"model.gguf\", \"--port\", \"${port}\"}");
    }
    environment = Map.copyOf(environment);
  }

  public static LaunchCommand of(String... command) {
    return new LaunchCommand(List.of(command), Optional.empty(), Map.of());
  }

  public LaunchCommand inDirectory(Path dir) {
    return new LaunchCommand(command, Optional.of(dir), environment);
  }

  public LaunchCommand withEnvironment(Map<String, String> extra) {
    Map<String, String> env = new LinkedHashMap<>(environment);
    env.putAll(extra);
    return new LaunchCommand(command, workingDir, env);
  }

  /**
   * Replaces {@code ${name}} in every argument and variable, e.g. {@code ${port}} with a free port.
   *
   * @throws IllegalArgumentException naming a placeholder that has no value
   */
  public LaunchCommand resolve(Map<String, String> values) {
    List<String> args = new ArrayList<>();
    for (String a : command) args.add(substitute(a, values));
    Map<String, String> env = new LinkedHashMap<>();
    environment.forEach((k, v) -> env.put(k, substitute(v, values)));
    return new LaunchCommand(args, workingDir, env);
  }

  private static String substitute(String text, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException("the launch command uses ${" + m.group(1) + "}, which has no value; known: "
            + values.keySet());
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
  }

  /** The command as a shell would show it, shortened for messages; environment values are never shown. */
  public String describe() {
    StringBuilder s = new StringBuilder();
    for (String a : command) {
      if (s.length() > 0) s.append(' ');
      s.append(a.isEmpty() || a.matches(".*[\\s'\"$\\\\].*") ? "'" + a.replace("'", "'\\''") + "'" : a);
    }
    return s.length() <= DESCRIBED_CHARS ? s.toString() : s.substring(0, DESCRIBED_CHARS) + "...";
  }

  @Override
  public String toString() {
    return describe();
  }
}
