package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * One setting: its key, its default, what it means and how its text is read. The catalogue of them is
 * {@link SettingKeys}; the settings page (docs/settings.md) is checked against it.
 *
 * @param key          {@code llmbench.ready.timeout}
 * @param defaultValue the text used when nothing sets it; empty for none
 * @param shownDefault how the README shows the default, e.g. {@code embedded engine}
 * @param meaning      one line for the README
 * @param parser       turns the text into the value, or throws {@link IllegalArgumentException} saying why
 */
@API(status = INTERNAL)
public record Setting<T>(String key, String defaultValue, String shownDefault, String meaning, Parser<T> parser) {

  /** Reads a setting's text; throws {@link IllegalArgumentException} with the accepted forms when it cannot. */
  @FunctionalInterface
  public interface Parser<T> {
    T parse(String text);
  }

  /** {@code LLMBENCH_READY_TIMEOUT}: upper case, dots and dashes become underscores. */
  public String environmentVariable() {
    return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }
}
