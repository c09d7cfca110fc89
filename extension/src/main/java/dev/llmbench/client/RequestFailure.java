package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Why one request failed.
 *
 * @param kind    the category it is counted under
 * @param status  HTTP status, or 0 when there was none
 * @param message a short explanation, with an excerpt of the server's body for HTTP errors
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestFailure(ErrorKind kind, int status, String message) {

  /** {@return the key failures are counted by: {@code HTTP 503}, {@code TIMEOUT}, {@code CUT_STREAM}, ..} */
  public String key() {
    return kind == ErrorKind.HTTP_STATUS ? "HTTP " + status : kind.name();
  }

  @Override
  public String toString() {
    return key() + ": " + message;
  }
}
