package dev.llmbench.internal.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Resolves one setting with this precedence, first hit wins:
 * <ol>
 *   <li>JUnit configuration parameter {@code llmbench.x} (launcher, then system property {@code -Dllmbench.x},
 *       then {@code junit-platform.properties});</li>
 *   <li>environment variable {@code LLMBENCH_X} (dots and dashes become underscores);</li>
 *   <li>the annotation's attribute, when it is not empty;</li>
 *   <li>the built-in default.</li>
 * </ol>
 * So one suite runs against any deployment without a code change.
 */
public final class Settings {

  /** A resolved value and where it came from, for reports. */
  public record Value(String key, String value, String source) {}

  private final Function<String, Optional<String>> configuration;
  private final Map<String, String> environment;

  public Settings(Function<String, Optional<String>> configuration, Map<String, String> environment) {
    this.configuration = configuration;
    this.environment = environment;
  }

  public static Settings of(ExtensionContext context) {
    return new Settings(context::getConfigurationParameter, System.getenv());
  }

  public static String environmentName(String key) {
    return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  public Value resolve(String key, String annotationValue, String defaultValue) {
    Optional<String> fromConfig = configuration.apply(key).filter(v -> !v.isBlank());
    if (fromConfig.isPresent()) return new Value(key, fromConfig.get().strip(), "configuration parameter " + key);
    String env = environmentName(key);
    String fromEnv = environment.get(env);
    if (fromEnv != null && !fromEnv.isBlank()) return new Value(key, fromEnv.strip(), "environment variable " + env);
    if (annotationValue != null && !annotationValue.isBlank()) return new Value(key, annotationValue.strip(), "annotation");
    return new Value(key, defaultValue, "default");
  }

  public Optional<String> environment(String name) {
    return Optional.ofNullable(environment.get(name)).filter(v -> !v.isBlank());
  }
}
