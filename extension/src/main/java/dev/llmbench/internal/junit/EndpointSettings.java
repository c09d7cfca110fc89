package dev.llmbench.internal.junit;

import static dev.llmbench.internal.config.SettingKeys.API;
import static dev.llmbench.internal.config.SettingKeys.API_KEY_ENV;
import static dev.llmbench.internal.config.SettingKeys.BASE_URL;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_PROFILE;
import static dev.llmbench.internal.config.SettingKeys.EMBEDDED_STARTUP_DELAY;
import static dev.llmbench.internal.config.SettingKeys.IDLE_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.MODEL;
import static dev.llmbench.internal.config.SettingKeys.NETWORK_SAMPLES;
import static dev.llmbench.internal.config.SettingKeys.READY_POLL_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.READY_PROGRESS_INTERVAL;
import static dev.llmbench.internal.config.SettingKeys.READY_TIMEOUT;
import static dev.llmbench.internal.config.SettingKeys.REQUEST_TIMEOUT;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.EndpointConfig;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Resolves a test's {@link EndpointConfig} from configuration, environment, {@link LlmEndpoint} and defaults. */
final class EndpointSettings {

  private EndpointSettings() {}

  static EndpointConfig of(ExtensionContext context) {
    Optional<LlmEndpoint> a = Annotations.nearest(context, LlmEndpoint.class);
    Settings settings = Settings.of(context);
    String where = context.getTestMethod().map(ConfigurationErrors::where).orElse(context.getRequiredTestClass().getSimpleName());
    try {
      return new EndpointConfig(
          get(settings, BASE_URL, a, LlmEndpoint::baseUrl),
          settings.get(MODEL, a.map(LlmEndpoint::model).orElse(null)).optional().orElse(""),
          get(settings, API, a, LlmEndpoint::api),
          get(settings, API_KEY_ENV, a, LlmEndpoint::apiKeyEnv),
          get(settings, READY_TIMEOUT, a, LlmEndpoint::readyTimeout),
          get(settings, READY_POLL_INTERVAL, a, LlmEndpoint::readyPollInterval),
          get(settings, READY_PROGRESS_INTERVAL, a, LlmEndpoint::readyProgressInterval),
          get(settings, REQUEST_TIMEOUT, a, LlmEndpoint::requestTimeout),
          get(settings, IDLE_TIMEOUT, a, LlmEndpoint::idleTimeout),
          get(settings, EMBEDDED_PROFILE, a, LlmEndpoint::embeddedProfile),
          get(settings, EMBEDDED_STARTUP_DELAY, a, LlmEndpoint::embeddedStartupDelay),
          settings.get(NETWORK_SAMPLES).value());
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.endpoint(where, e);
    }
  }

  /** The test's endpoint settings with what {@code deployment} sets instead: its URL or profile, model and API. */
  static EndpointConfig of(ExtensionContext context, DeploymentSpec deployment) {
    EndpointConfig c = of(context);
    boolean embedded = deployment.profile().isPresent() || deployment.baseUrl().isEmpty() && c.isEmbedded();
    return new EndpointConfig(deployment.baseUrl().orElse(embedded ? null : c.baseUrl()), deployment.model().orElse(c.model()),
        deployment.api().orElse(c.api()), c.apiKeyEnv(), c.readyTimeout(), c.readyPollInterval(), c.readyProgressInterval(),
        c.requestTimeout(), c.idleTimeout(), deployment.profile().orElse(c.embeddedProfile()), c.embeddedStartupDelay(),
        c.networkSamples());
  }

  private static <T> T get(Settings settings, Setting<T> setting, Optional<LlmEndpoint> a, Function<LlmEndpoint, String> attribute) {
    return settings.get(setting, a.map(attribute).orElse(null)).value();
  }
}
