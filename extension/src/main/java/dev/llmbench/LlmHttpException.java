package dev.llmbench;

import dev.llmbench.internal.client.RequestError;

/** A request that failed, with the HTTP status (0 if none) and an excerpt of what the server said. */
public class LlmHttpException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final RequestError error;

  public LlmHttpException(String url, RequestError error) {
    super(error.key() + " from " + url + ": " + error.message());
    this.error = error;
  }

  public int status() {
    return error.status();
  }

  public RequestError error() {
    return error;
  }
}
