package dev.llmbench.internal.client;

import dev.llmbench.ErrorKind;

/**
 * What went wrong with one request.
 *
 * @param kind    the category it is counted under
 * @param status  HTTP status, or 0 when there was none
 * @param message a short explanation, with an excerpt of the server's body for HTTP errors
 */
public record RequestError(ErrorKind kind, int status, String message) {

  /** The key errors are counted by: {@code HTTP 503}, {@code TIMEOUT}, {@code BROKEN_STREAM}, ... */
  public String key() {
    return kind == ErrorKind.HTTP_STATUS ? "HTTP " + status : kind.name();
  }
}
