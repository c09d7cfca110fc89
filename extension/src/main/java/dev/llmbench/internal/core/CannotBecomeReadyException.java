package dev.llmbench.internal.core;

/**
 * A probe's answer that waiting cannot change: a refused key, no OpenAI-compatible route, a protocol that
 * does not match. The message says the cause and the fix.
 */
final class CannotBecomeReadyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What the route answered ({@code answered HTTP 404 ...}), for a route probe's refusal; else null. */
  private final String answered;

  CannotBecomeReadyException(String message, Throwable cause) {
    this(message, cause, null);
  }

  CannotBecomeReadyException(String message, Throwable cause, String answered) {
    super(message, cause);
    this.answered = answered;
  }

  String answered() {
    return answered != null ? answered : getMessage();
  }
}
