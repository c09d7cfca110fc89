package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** A prompt's tokens could not be counted, or not aligned to the length asked for; the message names the fix. */
@API(status = INTERNAL)
public final class TokenCountException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TokenCountException(String message) {
    super(message);
  }

  public TokenCountException(String message, Throwable cause) {
    super(message, cause);
  }
}
