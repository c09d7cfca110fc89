package dev.llmbench.internal.junit;

import static dev.llmbench.internal.config.SettingKeys.API;
import static dev.llmbench.internal.config.SettingKeys.API_KEY_ENV;
import static dev.llmbench.internal.config.SettingKeys.BASE_URL;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_COMMAND;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_ENV;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_GPUS;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_IMAGE;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_IPC;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_LOG_FILE;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_STOP_GRACE;
import static dev.llmbench.internal.config.SettingKeys.CONTAINER_VOLUMES;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_API_KEY;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_API_KEY_ROUTES;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_COLD_BATCH_STALL;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_FAULTS;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_FAULT_SEED;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_MODE;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_PREFIX_CACHE;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_PROFILE;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_SLOWDOWN;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_MALFORMED_ABOVE;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_EMBEDDINGS;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_STARTUP_DELAY;
import static dev.llmbench.internal.config.SettingKeys.HEADERS;
import static dev.llmbench.internal.config.SettingKeys.IDLE_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.KEEP_ALIVE;
import static dev.llmbench.internal.config.SettingKeys.LAUNCH_COMMAND;
import static dev.llmbench.internal.config.SettingKeys.LAUNCH_ENV;
import static dev.llmbench.internal.config.SettingKeys.LAUNCH_LOG_FILE;
import static dev.llmbench.internal.config.SettingKeys.LAUNCH_STOP_GRACE;
import static dev.llmbench.internal.config.SettingKeys.LAUNCH_WORKING_DIR;
import static dev.llmbench.internal.config.SettingKeys.MODEL;
import static dev.llmbench.internal.config.SettingKeys.NETWORK_SAMPLES;
import static dev.llmbench.internal.config.SettingKeys.PROXY;
import static dev.llmbench.internal.config.SettingKeys.READY_POLL_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.READY_PROGRESS_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.READY_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.REQUEST_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.SERVER_LOG_FILE;
import static dev.llmbench.internal.config.SettingKeys.TLS_TRUST;
import static dev.llmbench.internal.config.SettingKeys.TLS_TRUST_PASSWORD_ENV;

import dev.llmbench.launch.LaunchContainer;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.client.ConnectionSettings;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.launch.Bind;
import dev.llmbench.launch.ContainerSpec;
import dev.llmbench.launch.GpuRequest;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.EndpointSpec;
import dev.llmbench.launch.LaunchSpec;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.FaultPlan;
import dev.llmbench.launch.LaunchCommand;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Resolves a test's {@link EndpointSpec} from configuration, environment, {@link LlmEndpoint} and defaults. */
final class EndpointSettings {

  private EndpointSettings() {}

  static EndpointSpec of(ExtensionContext context) {
    Optional<LlmEndpoint> a = Annotations.nearest(context, LlmEndpoint.class);
    Settings settings = Settings.of(context);
    String where = context.getTestMethod().map(ConfigurationErrors::where).orElse(context.getRequiredTestClass().getSimpleName());
    try {
      Optional<LaunchSpec> launch = launch(settings, Annotations.nearest(context, LaunchServer.class));
      Optional<ContainerSpec> container = container(settings, Annotations.nearest(context, LaunchContainer.class));
      if (launch.isPresent() && container.isPresent()) {
        throw new IllegalArgumentException("both a process (@LaunchServer or llmbench.launch.command) and a container "
            + "(@LaunchContainer or llmbench.container.image) are set to start the server; keep one of them");
      }
      return new EndpointSpec(
          get(settings, BASE_URL, a, LlmEndpoint::baseUrl),
          settings.get(MODEL, a.map(LlmEndpoint::model).orElse(null)).optional().orElse(""),
          get(settings, API, a, LlmEndpoint::api),
          get(settings, API_KEY_ENV, a, LlmEndpoint::apiKeyEnv),
          get(settings, READY_TIMEOUT, a, LlmEndpoint::readyTimeout),
          get(settings, READY_POLL_INTERVAL, a, LlmEndpoint::readyPollInterval),
          get(settings, READY_PROGRESS_INTERVAL, a, LlmEndpoint::readyProgressInterval),
          get(settings, REQUEST_TIMEOUT, a, LlmEndpoint::requestTimeout),
          get(settings, IDLE_TIMEOUT, a, LlmEndpoint::idleTimeout),
          embedded(settings, a),
          launch,
          container,
          settings.get(SERVER_LOG_FILE).optional(),
          settings.get(NETWORK_SAMPLES).value(),
          connection(settings));
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.endpoint(where, e);
    }
  }

  private static ConnectionSettings connection(Settings settings) {
    return new ConnectionSettings(settings.get(HEADERS).optional().orElse(List.of()), settings.get(TLS_TRUST).optional(),
        settings.get(TLS_TRUST_PASSWORD_ENV).optional().orElse(""), settings.get(PROXY).value(), settings.get(KEEP_ALIVE).value());
  }

  private static EmbeddedOptions embedded(Settings settings, Optional<LlmEndpoint> a) {
    return EmbeddedOptions.builder(get(settings, EMBEDDED_PROFILE, a, LlmEndpoint::embeddedProfile))
        .startupDelay(get(settings, EMBEDDED_STARTUP_DELAY, a, LlmEndpoint::embeddedStartupDelay))
        .faults(settings.get(EMBEDDED_FAULTS, a.map(LlmEndpoint::embeddedFaults).orElse(null)).optional()
            .orElse(FaultPlan.NONE))
        .faultSeed(settings.get(EMBEDDED_FAULT_SEED).value())
        .mode(settings.get(EMBEDDED_MODE).value())
        .apiKey(settings.get(EMBEDDED_API_KEY).optional().orElse(null))
        .keyedRoutes(settings.get(EMBEDDED_API_KEY_ROUTES).value())
        .prefixCache(settings.get(EMBEDDED_PREFIX_CACHE).value())
        .coldBatchStall(settings.get(EMBEDDED_COLD_BATCH_STALL).value())
        .slowdown(settings.get(EMBEDDED_SLOWDOWN).value())
        .malformedAbove(settings.get(EMBEDDED_MALFORMED_ABOVE).value())
        .embeddingsRoute(settings.get(EMBEDDED_EMBEDDINGS).value())
        .build();
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

  /** The test's endpoint settings with what {@code deployment} sets instead: its URL or profile, model and API. */
  static EndpointSpec of(ExtensionContext context, DeploymentSpec deployment) {
    EndpointSpec c = of(context);
    boolean embedded = deployment.profile().isPresent() || deployment.baseUrl().isEmpty() && c.isEmbedded();
    EmbeddedOptions engine = deployment.profile().map(p -> c.embedded().withProfile(p)).orElse(c.embedded());
    return new EndpointSpec(deployment.baseUrl().orElse(embedded ? null : c.baseUrl()), deployment.model().orElse(c.model()),
        deployment.api().orElse(c.api()), c.apiKeyEnv(), c.readyTimeout(), c.readyPollInterval(), c.readyProgressInterval(),
        c.requestTimeout(), c.idleTimeout(), engine, embedded ? Optional.empty() : c.launch(),
        embedded ? Optional.empty() : c.container(), c.serverLogFile(),
        c.networkSamples(), c.connection());
  }

  private static <T> T get(Settings settings, Setting<T> setting, Optional<LlmEndpoint> a, Function<LlmEndpoint, String> attribute) {
    return settings.get(setting, a.map(attribute).orElse(null)).value();
  }
}
