package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** A trace file that is not what its format says: the message names the file, the line and the field. */
final class TraceFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TraceFormatException(String message) {
    super(message);
  }

  public TraceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
