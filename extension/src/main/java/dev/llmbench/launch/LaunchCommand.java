package dev.llmbench.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to start an inference server: its command line (no shell unless the user names one), working
 * directory and extra environment variables.
 *
 * @param command     program and arguments, such as {@code llama-server -m model.gguf --port 8080}
 * @param workingDir  where it runs; empty for the JVM's working directory
 * @param environment variables added to the JVM's own environment
 */
record LaunchCommand(List<String> command, Optional<Path> workingDir, Map<String, String> environment) {

  private static final Pattern VARIABLE = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)", Pattern.DOTALL);
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

  /**
   * Reads a command written on one line, as in {@code llmbench.launch.command=vllm serve m --port ${port}}:
   * words split at whitespace; {@code '...'} keeps everything literally, {@code "..."} allows {@code \"}
   * and {@code \\}; a backslash outside quotes keeps the next character. No shell runs: for pipes or
   * {@code &&}, launch {@code sh -c '...'}.
   *
   * @throws IllegalArgumentException for an unclosed quote or an empty command
   */
  public static LaunchCommand parse(String line) {
    return new LaunchCommand(words(line), Optional.empty(), Map.of());
  }

  /**
   * Reads environment variables written on one line, as in {@code llmbench.launch.env=CUDA_VISIBLE_DEVICES=0,1
   * HF_HOME=/data/hf}: words as in {@link #parse}, each {@code NAME=value}.
   *
   * @throws IllegalArgumentException naming a word that is not {@code NAME=value}
   */
  public static Map<String, String> parseEnvironment(String line) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String word : words(line)) {
      Matcher m = VARIABLE.matcher(word);
      if (!m.matches()) {
        throw new IllegalArgumentException("'" + word + "' is not NAME=value; write e.g. CUDA_VISIBLE_DEVICES=0,1 HF_HOME=/data/hf");
      }
      env.put(m.group(1), m.group(2));
    }
    return env;
  }

  /** Words as {@link #parse} splits them, possibly none. */
  public static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == '\'') {
        if (c == '\'') quote = 0;
        else word.append(c);
      } else if (quote == '"') {
        if (c == '"') quote = 0;
        else if (c == '\\' && i + 1 < line.length() && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) word.append(line.charAt(++i));
        else word.append(c);
      } else if (Character.isWhitespace(c)) {
        if (word != null) words.add(word.toString());
        word = null;
      } else {
        if (word == null) word = new StringBuilder();
        if (c == '\'' || c == '"') quote = c;
        else if (c == '\\' && i + 1 < line.length()) word.append(line.charAt(++i));
        else word.append(c);
      }
    }
    if (quote != 0) throw new IllegalArgumentException("unclosed " + quote + " in: " + line);
    if (word != null) words.add(word.toString());
    return words;
  }

  /** The {@code ${name}} placeholders the command and its environment use, such as {@code port}. */
  public Set<String> placeholders() {
    List<String> texts = new ArrayList<>(command);
    texts.addAll(environment.values());
    return placeholders(texts);
  }

  /** The {@code ${name}} placeholders {@code texts} use. */
  public static Set<String> placeholders(List<String> texts) {
    Set<String> names = new LinkedHashSet<>();
    for (String t : texts) {
      Matcher m = PLACEHOLDER.matcher(t);
      while (m.find()) names.add(m.group(1));
    }
    return names;
  }

  /** A port on 127.0.0.1 that was free a moment ago, for {@code ${port}}; the server binds it soon after. */
  public static int freeLocalPort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
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

  /**
   * {@code text} with each {@code ${name}} replaced by its value.
   *
   * @throws IllegalArgumentException naming a placeholder that has no value
   */
  public static String substitute(String text, Map<String, String> values) {
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
