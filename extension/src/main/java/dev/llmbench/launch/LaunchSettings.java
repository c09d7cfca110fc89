package dev.llmbench.launch;

import static dev.llmbench.launch.LaunchKeys.CONTAINER_COMMAND;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_ENV;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_GPUS;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_IMAGE;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_IPC;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_LOG_FILE;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_STOP_GRACE;
import static dev.llmbench.launch.LaunchKeys.CONTAINER_VOLUMES;
import static dev.llmbench.launch.LaunchKeys.LAUNCH_COMMAND;
import static dev.llmbench.launch.LaunchKeys.LAUNCH_ENV;
import static dev.llmbench.launch.LaunchKeys.LAUNCH_LOG_FILE;
import static dev.llmbench.launch.LaunchKeys.LAUNCH_STOP_GRACE;
import static dev.llmbench.launch.LaunchKeys.LAUNCH_WORKING_DIR;

import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.junit.Annotations;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Resolves the server a test class starts from configuration, environment, {@link LaunchServer} and {@link LaunchContainer}. */
final class LaunchSettings {

  private LaunchSettings() {}

  /**
   * The process or the container to start; empty when neither is set.
   *
   * @throws IllegalArgumentException when both are, or a setting is not usable
   */
  static Optional<ServerStart> server(ExtensionContext context) {
    Settings settings = Settings.of(context);
    Optional<LaunchSpec> launch = launch(settings, Annotations.nearest(context, LaunchServer.class));
    Optional<ContainerSpec> container = container(settings, Annotations.nearest(context, LaunchContainer.class));
    if (launch.isPresent() && container.isPresent()) {
      throw new IllegalArgumentException("both a process (@LaunchServer or llmbench.launch.command) and a container "
          + "(@LaunchContainer or llmbench.container.image) are set to start the server; keep one of them");
    }
    return launch.<ServerStart>map(l -> l).or(() -> container);
  }

  /**
   * The server {@code candidate} starts: the class's process or container with its serve parameters applied; empty
   * when the class starts none.
   *
   * @throws IllegalArgumentException when both are set, or a setting is not usable
   */
  static Optional<ServerStart> server(ExtensionContext context, String candidate, Map<String, String> serve) {
    return server(context).map(s -> s instanceof LaunchSpec l ? l.serving(candidate, serve)
        : ((ContainerSpec) s).serving(candidate, serve));
  }

  /** A server to start: from llmbench.launch.command, else from {@link LaunchServer}; its other settings apply either way. */
  private static Optional<LaunchSpec> launch(Settings settings, Optional<LaunchServer> a) {
    Optional<LaunchCommand> command = settings.get(LAUNCH_COMMAND).optional()
        .or(() -> a.map(l -> LaunchCommand.of(l.command())));
    if (command.isEmpty()) return Optional.empty();
    LaunchCommand c = command.get();
    Optional<Path> dir = settings.get(LAUNCH_WORKING_DIR, a.map(LaunchServer::workingDir).orElse(null)).optional();
    if (dir.isPresent()) c = c.inDirectory(dir.get());
    Map<String, String> env = settings.get(LAUNCH_ENV).optional().orElseGet(() -> a.map(l -> environment(l.environment()))
        .orElse(Map.of()));
    return Optional.of(new LaunchSpec(c.withEnvironment(env),
        settings.get(LAUNCH_LOG_FILE, a.map(LaunchServer::logFile).orElse(null)).optional(),
        settings.get(LAUNCH_STOP_GRACE, a.map(LaunchServer::stopGrace).orElse(null)).value()));
  }

  /**
   * A server to start in a container: from llmbench.container.image, else from {@link LaunchContainer}; the
   * annotation's other attributes apply to an image set either way, as settings override each of them.
   */
  private static Optional<ContainerSpec> container(Settings settings, Optional<LaunchContainer> a) {
    Optional<String> image = settings.get(CONTAINER_IMAGE, a.map(LaunchContainer::image).orElse(null)).optional();
    if (image.isEmpty()) return Optional.empty();
    List<String> command = settings.get(CONTAINER_COMMAND).optional()
        .orElseGet(() -> a.map(c -> List.of(c.command())).orElse(List.of()));
    List<String> env = settings.get(CONTAINER_ENV).optional()
        .orElseGet(() -> a.map(c -> List.of(c.environment())).orElse(List.of()));
    List<Bind> volumes = settings.get(CONTAINER_VOLUMES).optional()
        .orElseGet(() -> Bind.parseAll(a.map(c -> List.of(c.volumes())).orElse(List.of())));
    return Optional.of(new ContainerSpec(image.get(), command, ContainerSpec.environment(env, System::getenv),
        settings.get(CONTAINER_GPUS, a.map(LaunchContainer::gpus).orElse(null)).optional().orElse(GpuRequest.NONE),
        volumes, settings.get(CONTAINER_IPC, a.map(LaunchContainer::ipc).orElse(null)).optional().orElse(""),
        settings.get(CONTAINER_LOG_FILE, a.map(LaunchContainer::logFile).orElse(null)).optional(),
        settings.get(CONTAINER_STOP_GRACE, a.map(LaunchContainer::stopGrace).orElse(null)).value()));
  }

  /** {@code NAME=value} words, each one whole: values may hold spaces. */
  private static Map<String, String> environment(String[] words) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String w : words) {
      int eq = w.indexOf('=');
      if (eq < 1) throw new IllegalArgumentException("@LaunchServer environment '" + w + "' is not NAME=value");
      env.put(w.substring(0, eq), w.substring(eq + 1));
    }
    return env;
  }
}
