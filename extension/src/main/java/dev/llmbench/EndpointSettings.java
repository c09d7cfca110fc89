package dev.llmbench;

import dev.llmbench.internal.config.DurationParser;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.embedded.PerformanceProfile;
import java.lang.reflect.AnnotatedElement;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The endpoint settings of a test, resolved from configuration, environment, {@link LlmEndpoint} and
 * defaults. Two tests with equal settings share one endpoint (one embedded engine, one readiness wait).
 */
record EndpointSettings(
    URI baseUrl,
    String model,
    ApiStyle api,
    String apiKeyEnv,
    Duration readyTimeout,
    Duration readyPollInterval,
    Duration readyProgressInterval,
    Duration requestTimeout,
    Duration idleTimeout,
    PerformanceProfile embeddedProfile,
    Duration embeddedStartupDelay,
    List<Settings.Value> sources) {

  boolean isEmbedded() {
    return baseUrl == null;
  }

  /** The identity of the endpoint, without the list of where each value came from. */
  String key() {
    return String.join("|", String.valueOf(baseUrl), model, api.name(), apiKeyEnv, readyTimeout.toString(),
        requestTimeout.toString(), idleTimeout.toString(), embeddedProfile.name(), embeddedStartupDelay.toString());
  }

  static EndpointSettings of(ExtensionContext context) {
    LlmEndpoint a = findAnnotation(context).orElse(null);
    Settings settings = Settings.of(context);
    String where = context.getTestMethod().map(m -> m.getDeclaringClass().getName() + "#" + m.getName())
        .orElse(context.getRequiredTestClass().getName());
    List<Settings.Value> sources = new ArrayList<>();
    String url = value(settings, sources, "llmbench.base-url", a == null ? "" : a.baseUrl(), "");
    String model = value(settings, sources, "llmbench.model", a == null ? "" : a.model(), "");
    String api = value(settings, sources, "llmbench.api", a == null ? "" : a.api().name(), "CHAT");
    String keyEnv = value(settings, sources, "llmbench.api-key-env", a == null ? "" : a.apiKeyEnv(), "OPENAI_API_KEY");
    String profileName = value(settings, sources, "llmbench.embedded.profile", a == null ? "" : a.embeddedProfile(), "gqa-dense");
    PerformanceProfile profile = PerformanceProfile.named(profileName).orElseThrow(() -> new ExtensionConfigurationException(
        "@LlmEndpoint on [" + where + "]: unknown embedded profile '" + profileName + "'; choose one of "
            + PerformanceProfile.builtIn().keySet() + " (set llmbench.embedded.profile or embeddedProfile)"));
    URI baseUrl = null;
    if (!url.isEmpty()) {
      try {
        baseUrl = URI.create(url);
        if (baseUrl.getScheme() == null || baseUrl.getHost() == null || !baseUrl.getScheme().startsWith("http")) {
          throw new IllegalArgumentException("no http(s) scheme or host");
        }
        if (baseUrl.getUserInfo() != null) {
          throw new IllegalArgumentException("credentials in the URL would be printed in reports; put the key in "
              + "the environment variable named by apiKeyEnv instead");
        }
      } catch (IllegalArgumentException e) {
        throw new ExtensionConfigurationException("@LlmEndpoint on [" + where + "]: base URL '" + url
            + "' is not usable (" + e.getMessage() + "); write it like http://127.0.0.1:8000", e);
      }
    }
    ApiStyle apiStyle;
    try {
      apiStyle = ApiStyle.valueOf(api.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("@LlmEndpoint on [" + where + "]: api '" + api
          + "' is unknown; use chat or completions (llmbench.api)", e);
    }
    return new EndpointSettings(baseUrl, model, apiStyle, keyEnv,
        duration(settings, sources, where, "llmbench.ready.timeout", a == null ? "" : a.readyTimeout(), "20m"),
        duration(settings, sources, where, "llmbench.ready.poll-interval", a == null ? "" : a.readyPollInterval(), "2s"),
        duration(settings, sources, where, "llmbench.ready.progress-interval", a == null ? "" : a.readyProgressInterval(), "30s"),
        duration(settings, sources, where, "llmbench.request-timeout", a == null ? "" : a.requestTimeout(), "10m"),
        duration(settings, sources, where, "llmbench.idle-timeout", a == null ? "" : a.idleTimeout(), "2m"),
        profile,
        duration(settings, sources, where, "llmbench.embedded.startup-delay", a == null ? "" : a.embeddedStartupDelay(), "0s"),
        List.copyOf(sources));
  }

  private static String value(Settings settings, List<Settings.Value> sources, String key, String annotation, String def) {
    Settings.Value v = settings.resolve(key, annotation, def);
    sources.add(v);
    return v.value();
  }

  private static Duration duration(Settings settings, List<Settings.Value> sources, String where, String key,
      String annotation, String def) {
    Settings.Value v = settings.resolve(key, annotation, def);
    sources.add(v);
    try {
      Duration d = DurationParser.parse(v.value());
      if (d.isNegative() || (d.isZero() && !key.equals("llmbench.embedded.startup-delay"))) {
        throw new IllegalArgumentException("'" + v.value() + "' must be positive");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("@LlmEndpoint on [" + where + "]: " + key + " from " + v.source()
          + ": " + e.getMessage(), e);
    }
  }

  static Optional<LlmEndpoint> findAnnotation(ExtensionContext context) {
    Optional<Class<?>> type = context.getTestClass();
    while (type.isPresent()) {
      Optional<LlmEndpoint> found = AnnotationSupport.findAnnotation((AnnotatedElement) type.get(), LlmEndpoint.class);
      if (found.isPresent()) return found;
      type = Optional.ofNullable(type.get().getEnclosingClass());
    }
    return Optional.empty();
  }
}
