package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** A setting's text could not be read: the message names the key, where the text came from and why. */
@API(status = INTERNAL)
public final class SettingException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  SettingException(Setting<?> setting, String text, String source, IllegalArgumentException cause) {
    super(setting.key() + " '" + text + "' (from " + source + ") is not usable: " + cause.getMessage(), cause);
  }
}
