package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Resolves settings with one precedence, first hit wins:
 * <ol>
 *   <li>JUnit configuration parameter {@code llmbench.x} (launcher, then system property {@code -Dllmbench.x},
 *       then {@code junit-platform.properties});</li>
 *   <li>environment variable {@code LLMBENCH_X};</li>
 *   <li>the annotation's attribute, when it is not empty;</li>
 *   <li>the setting's default.</li>
 * </ol>
 * So one suite runs against any deployment without a code change.
 */
@API(status = INTERNAL)
public final class Settings {

  /**
   * A setting's value and where it came from.
   *
   * @param value  the parsed value, or null when the setting is unset and has no default
   * @param text   the text it was read from
   * @param source {@code configuration parameter llmbench.x}, {@code system property llmbench.x},
   *               {@code environment variable LLMBENCH_X},
   *               {@code annotation} or {@code default}
   */
  public record Resolved<T>(T value, String text, String source) {
    public Optional<T> optional() {
      return Optional.ofNullable(value);
    }
  }

  private final Function<String, Optional<String>> configuration;
  private final Map<String, String> environment;

  public Settings(Function<String, Optional<String>> configuration, Map<String, String> environment) {
    this.configuration = configuration;
    this.environment = environment;
  }

  public static Settings of(ExtensionContext context) {
    return new Settings(context::getConfigurationParameter, System.getenv());
  }

  /** The setting's value; {@code annotationValue} may be null or empty for none. */
  public <T> Resolved<T> get(Setting<T> setting, String annotationValue) {
    String text;
    String source;
    Optional<String> fromConfig = configuration.apply(setting.key()).filter(v -> !v.isBlank());
    String fromEnv = environment.get(setting.environmentVariable());
    if (fromConfig.isPresent()) {
      text = fromConfig.get().strip();
      // A -D property reaches JUnit as a configuration parameter; said as the user wrote it, unless a parameter beat it.
      source = (fromConfig.get().equals(System.getProperty(setting.key())) ? "system property " : "configuration parameter ")
          + setting.key();
    } else if (fromEnv != null && !fromEnv.isBlank()) {
      text = fromEnv.strip();
      source = "environment variable " + setting.environmentVariable();
    } else if (annotationValue != null && !annotationValue.isBlank()) {
      text = annotationValue.strip();
      source = "annotation";
    } else {
      text = setting.defaultValue();
      source = "default";
    }
    if (text.isEmpty()) return new Resolved<>(null, text, source);
    try {
      return new Resolved<>(setting.parser().parse(text), text, source);
    } catch (IllegalArgumentException e) {
      throw new SettingException(setting, text, source, e);
    }
  }

  /** The setting's value when nothing but configuration, environment and default can set it. */
  public <T> Resolved<T> get(Setting<T> setting) {
    return get(setting, null);
  }
}
