package dev.llmbench.launch;

import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerLaunchException;
import dev.llmbench.internal.startup.ServerLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A server the run starts in a container: the image, the command (empty for the image's own), the
 * environment, GPUs, mounts and IPC mode, where its log goes and how long it may take to stop. The container
 * uses the host's network, so the server binds a port of this machine directly ({@code ${port}} in the command
 * or the environment becomes a free one). A record, so two suites with the same container share one.
 *
 * @param image       e.g. {@code vllm/vllm-openai:v0.11.0}; pulled when the Docker host does not have it
 * @param command     the arguments after the image (the image's entrypoint gets them); empty for its default
 * @param environment variables set in the container
 * @param gpus        the GPUs it asks for
 * @param binds       host paths mounted in it
 * @param ipc         Docker's IPC mode, e.g. {@code host} (vLLM's PyTorch needs shared memory); empty for Docker's default
 * @param logFile     where its output goes; empty for {@code <report dir>/container-<port>.log}
 * @param stopGrace   between SIGTERM ({@code docker stop}) and SIGKILL when the run ends
 * @param candidate   the candidate it is, when it is one of several launched in turn: its log is
 *                    {@code container-<candidate>.log}, as they may share a port
 */
record ContainerSpec(String image, List<String> command, Map<String, String> environment, GpuRequest gpus,
    List<Bind> binds, String ipc, Optional<Path> logFile, Duration stopGrace, Optional<String> candidate)
    implements ServerStart {

  ContainerSpec(String image, List<String> command, Map<String, String> environment, GpuRequest gpus, List<Bind> binds,
      String ipc, Optional<Path> logFile, Duration stopGrace) {
    this(image, command, environment, gpus, binds, ipc, logFile, stopGrace, Optional.empty());
  }

  public ContainerSpec {
    if (image == null || image.isBlank()) {
      throw new IllegalArgumentException("the container has no image; name one, e.g. vllm/vllm-openai:v0.11.0");
    }
    command = List.copyOf(command);
    environment = Map.copyOf(new LinkedHashMap<>(environment));
    binds = List.copyOf(binds);
    if (stopGrace.isNegative()) throw new IllegalArgumentException("the stop grace period must not be negative: " + stopGrace);
  }

  /** The same container as candidate {@code name}, its serve parameters applied to its command ({@link ServeArgs}). */
  ContainerSpec serving(String name, Map<String, String> serve) {
    return new ContainerSpec(image, ServeArgs.apply(command, serve), environment, gpus, binds, ipc, logFile, stopGrace,
        Optional.of(name));
  }

  /**
   * Reads environment words: {@code NAME=value}, or {@code NAME} alone for the value {@code env} gives it (this
   * JVM's, as {@code docker run -e NAME} passes the shell's).
   *
   * @throws IllegalArgumentException naming a word that is neither, or a variable that is not set
   */
  public static Map<String, String> environment(List<String> words, java.util.function.UnaryOperator<String> env) {
    Map<String, String> vars = new LinkedHashMap<>();
    for (String w : words) {
      int eq = w.indexOf('=');
      String name = eq < 0 ? w : w.substring(0, eq);
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new IllegalArgumentException("container environment '" + w + "' is not NAME=value or NAME; write e.g. "
            + "CUDA_VISIBLE_DEVICES=0,1 or HF_TOKEN");
      }
      if (eq >= 0) {
        vars.put(name, w.substring(eq + 1));
      } else {
        String value = env.apply(name);
        if (value == null) {
          throw new IllegalArgumentException("container environment " + name + " passes this JVM's variable " + name
              + ", which is not set; set it, or write " + name + "=value");
        }
        vars.put(name, value);
      }
    }
    return vars;
  }

  /** The {@code ${name}} placeholders the command and the environment use, such as {@code port}. */
  public Set<String> placeholders() {
    List<String> texts = new ArrayList<>(command);
    texts.addAll(environment.values());
    return LaunchCommand.placeholders(texts);
  }

  /**
   * Replaces {@code ${name}} in every argument and variable, e.g. {@code ${port}} with a free port.
   *
   * @throws IllegalArgumentException naming a placeholder that has no value
   */
  public ContainerSpec resolve(Map<String, String> values) {
    List<String> args = command.stream().map(a -> LaunchCommand.substitute(a, values)).toList();
    Map<String, String> env = new LinkedHashMap<>();
    environment.forEach((k, v) -> env.put(k, LaunchCommand.substitute(v, values)));
    return new ContainerSpec(image, args, env, gpus, binds, ipc, logFile, stopGrace, candidate);
  }

  /**
   * Starts the container (host network) as a {@link LaunchSpec} starts a process: {@code ${port}} a free port of this
   * machine, where the server then listens at 127.0.0.1.
   */
  @Override
  public Started start(URI baseUrl, Path reportDir, BenchListener listener) {
    String port = placeholders().contains("port") ? Integer.toString(LaunchCommand.freeLocalPort()) : null;
    if (port == null && baseUrl == null) {
      throw new ServerLaunchException("the container's command and environment have no ${port} and llmbench.base-url is "
          + "unset, so LLMBench cannot know where the server listens; add --port ${port} to the command (or the engine's "
          + "own way, e.g. OLLAMA_HOST=127.0.0.1:${port} in the environment), or set llmbench.base-url", null);
    }
    URI url = baseUrl != null ? baseUrl : URI.create("http://127.0.0.1:" + port);
    if (port == null) requireFreeLocalPort(url);
    ContainerSpec resolved = resolve(port == null ? Map.of() : Map.of("port", port));
    Path log = logFile.orElse(reportDir.resolve("container-" + candidate.orElse(port == null ? Integer.toString(portOf(url)) : port)
        + ".log"));
    RunningServer server = Containers.start(resolved, log, ServerLog.DEFAULT_RECENT_LINES);
    listener.containerStarted(server.describe(), log);
    return new Started(server, url);
  }

  /**
   * A container on the host network that is told a fixed port: if something already answers there, the wait
   * would find that instead of the container's server (and the container's would fail to bind), so say so first.
   */
  private static void requireFreeLocalPort(URI url) {
    String host = url.getHost();
    if (!host.equals("127.0.0.1") && !host.equalsIgnoreCase("localhost") && !host.equals("[::1]")) return;
    int port = portOf(url);
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host.equals("[::1]") ? "::1" : "127.0.0.1", port), 1000);
    } catch (IOException e) {
      return; // refused: free
    }
    throw new ServerLaunchException("port " + port + " on 127.0.0.1 is already taken: something listens there before "
        + "the container starts, so its server could not bind it and the readiness wait would measure the other one. Stop "
        + "what listens there (ss -ltnp 'sport = :" + port + "' shows it), or put ${port} in the container's command "
        + "(and leave llmbench.base-url unset) so that LLMBench picks a free port; no container was started", null);
  }

  private static int portOf(URI url) {
    return url.getPort() != -1 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
  }

  /** The image and command as {@code docker run} would show them, for messages; environment values are never shown. */
  public String describe() {
    String args = command.isEmpty() ? "" : " " + LaunchCommand.of(command.toArray(String[]::new)).describe();
    return image + args;
  }

  /** The {@code docker run} that starts the same container, for a message that says how to try it by hand. */
  public String dockerRun() {
    StringBuilder s = new StringBuilder("docker run --rm --network host");
    if (!gpus.isNone()) s.append(" --gpus ").append(gpus.toString().startsWith("device=") ? "'\"" + gpus + "\"'" : gpus);
    if (!ipc.isEmpty()) s.append(" --ipc ").append(ipc);
    for (Bind b : binds) s.append(" -v ").append(b);
    for (String name : environment.keySet()) s.append(" -e ").append(name); // the value from your shell, never printed
    return s.append(' ').append(describe()).toString();
  }
}
