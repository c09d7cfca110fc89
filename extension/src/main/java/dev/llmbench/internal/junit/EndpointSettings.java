package dev.llmbench.internal.junit;

import static dev.llmbench.internal.config.SettingKeys.API;
import static dev.llmbench.internal.config.SettingKeys.API_KEY_ENV;
import static dev.llmbench.internal.config.SettingKeys.BASE_URL;
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
import static dev.llmbench.internal.config.SettingKeys.MODEL;
import static dev.llmbench.internal.config.SettingKeys.NETWORK_SAMPLES;
import static dev.llmbench.internal.config.SettingKeys.PROXY;
import static dev.llmbench.internal.config.SettingKeys.READY_POLL_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.READY_PROGRESS_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.READY_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.REQUEST_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.REQUIRE_SERVER;
import static dev.llmbench.internal.config.SettingKeys.SERVER_LOG_FILE;
import static dev.llmbench.internal.config.SettingKeys.TLS_TRUST;
import static dev.llmbench.internal.config.SettingKeys.TLS_TRUST_PASSWORD_ENV;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.client.ConnectionSettings;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.EndpointSpec;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.FaultPlan;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Resolves a test's {@link EndpointSpec} from configuration, environment, {@link LlmEndpoint} and defaults; the server
 * it starts itself, if any, from the first feature that gives one ({@code Feature#server}).
 */
final class EndpointSettings {

  private EndpointSettings() {}

  /**
   * The endpoint of the context's test.
   *
   * @throws org.junit.jupiter.api.extension.ExtensionConfigurationException for a setting that cannot be read, or for
   *     no server when {@code llmbench.require-server} is true
   */
  static EndpointSpec of(ExtensionContext context) {
    return required(context, resolve(context), "");
  }

  private static EndpointSpec resolve(ExtensionContext context) {
    Optional<LlmEndpoint> a = Annotations.nearest(context, LlmEndpoint.class);
    Settings settings = Settings.of(context);
    String where = where(context);
    try {
      Optional<ServerStart> server = Features.all().stream().map(f -> f.server(context)).flatMap(Optional::stream)
          .findFirst();
      Settings.Resolved<URI> url = settings.get(BASE_URL, a.map(LlmEndpoint::baseUrl).orElse(null));
      return new EndpointSpec(
          url.value(),
          settings.get(MODEL, a.map(LlmEndpoint::model).orElse(null)).optional().orElse(""),
          get(settings, API, a, LlmEndpoint::api),
          get(settings, API_KEY_ENV, a, LlmEndpoint::apiKeyEnv),
          get(settings, READY_TIMEOUT, a, LlmEndpoint::readyTimeout),
          get(settings, READY_POLL_INTERVAL, a, LlmEndpoint::readyPollInterval),
          get(settings, READY_PROGRESS_INTERVAL, a, LlmEndpoint::readyProgressInterval),
          get(settings, REQUEST_TIMEOUT, a, LlmEndpoint::requestTimeout),
          get(settings, IDLE_TIMEOUT, a, LlmEndpoint::idleTimeout),
          embedded(settings, a),
          server,
          settings.get(SERVER_LOG_FILE).optional(),
          settings.get(NETWORK_SAMPLES).value(),
          connection(settings),
          url.value() == null ? "" : url.source().equals("annotation") ? "@LlmEndpoint(baseUrl)" : url.source());
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

  /** The test's endpoint settings with what {@code deployment} sets instead: its URL or profile, model and API. */
  static EndpointSpec of(ExtensionContext context, DeploymentSpec deployment) {
    EndpointSpec c = resolve(context);
    boolean embedded = deployment.profile().isPresent() || deployment.baseUrl().isEmpty() && c.isEmbedded();
    EmbeddedOptions engine = deployment.profile().map(p -> c.embedded().withProfile(p)).orElse(c.embedded());
    // A deployment by URL is measured where it runs; one without is a candidate the class's launch starts, its own.
    Optional<ServerStart> server = deployment.baseUrl().isPresent() || embedded ? Optional.empty() : candidate(context, deployment);
    if (!deployment.serve().isEmpty() && server.isEmpty()) {
      throw ConfigurationErrors.endpoint(where(context), new IllegalArgumentException("candidate '" + deployment.name()
          + "' has serve parameters " + deployment.serve() + " but the class launches no server to apply them to; add "
          + "@LaunchServer or @LaunchContainer (or llmbench.launch.command)"));
    }
    EndpointSpec spec = new EndpointSpec(deployment.baseUrl().orElse(embedded ? null : c.baseUrl()), deployment.model().orElse(c.model()),
        deployment.api().orElse(c.api()), c.apiKeyEnv(), c.readyTimeout(), c.readyPollInterval(), c.readyProgressInterval(),
        c.requestTimeout(), c.idleTimeout(), engine, server, c.serverLogFile(),
        c.networkSamples(), c.connection(),
        deployment.baseUrl().isPresent() ? "deployment " + deployment.name() : embedded ? "" : c.urlSource());
    return required(context, spec, deployment.profile().isPresent() ? " (deployment " + deployment.name()
        + " names the embedded engine)" : " for deployment " + deployment.name());
  }

  /**
   * {@code spec}, unless it is the embedded engine and {@code llmbench.require-server} wants a server: then a
   * configuration error that says how to set the URL.
   */
  private static EndpointSpec required(ExtensionContext context, EndpointSpec spec, String deployment) {
    if (!spec.isEmbedded()) return spec;
    Settings.Resolved<Boolean> require;
    try {
      require = Settings.of(context).get(REQUIRE_SERVER);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.endpoint(where(context), e);
    }
    if (!require.value()) return spec;
    throw ConfigurationErrors.endpoint(where(context), new IllegalArgumentException("no server is set" + deployment
        + ", and llmbench.require-server is true (from " + require.source() + "), so the embedded engine, a simulator, "
        + "is not measured instead. Set the server's URL: -Dllmbench.base-url=http://host:8000, the environment "
        + "variable LLMBENCH_BASE_URL, or @LlmEndpoint(baseUrl)"));
  }

  private static String where(ExtensionContext context) {
    return context.getTestMethod().map(ConfigurationErrors::where).orElse(context.getRequiredTestClass().getSimpleName());
  }

  /** The server a launched candidate starts, from the first feature that starts one. */
  private static Optional<ServerStart> candidate(ExtensionContext context, DeploymentSpec deployment) {
    try {
      return Features.all().stream().map(f -> f.server(context, deployment)).flatMap(Optional::stream).findFirst();
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.endpoint(where(context), e);
    }
  }

  private static <T> T get(Settings settings, Setting<T> setting, Optional<LlmEndpoint> a, Function<LlmEndpoint, String> attribute) {
    return settings.get(setting, a.map(attribute).orElse(null)).value();
  }
}
