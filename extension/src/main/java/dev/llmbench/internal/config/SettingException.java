package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** A setting's text could not be read: the message names the key, where the text came from and why. */
@API(status = INTERNAL)
public final class SettingException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  SettingException(Setting<?> setting, String text, String source, IllegalArgumentException cause) {
    super(setting.key() + " " + shown(setting, text) + " (from " + source + ") is not usable: " + cause.getMessage(), cause);
  }

  /** The text as a message may show it: never a header's value, never a URL's credentials. */
  private static String shown(Setting<?> setting, String text) {
    if (setting == SettingKeys.HEADERS) return "(values hidden)";
    return "'" + text.replaceAll("(?i)([a-z][a-z0-9+.-]*://)[^/@\\s]+@", "$1***@") + "'";
  }
}
