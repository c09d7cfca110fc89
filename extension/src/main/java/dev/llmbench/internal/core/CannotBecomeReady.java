package dev.llmbench.internal.core;

/**
 * A probe's answer that waiting cannot change: a refused key, no OpenAI-compatible route, a protocol that
 * does not match. The message says the cause and the fix.
 */
final class CannotBecomeReady extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CannotBecomeReady(String message, Throwable cause) {
    super(message, cause);
  }
}
