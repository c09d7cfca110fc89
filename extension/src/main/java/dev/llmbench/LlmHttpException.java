package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A request that failed, with the HTTP status (0 if none) and an excerpt of what the server said. */
@API(status = EXPERIMENTAL, since = "0.1")
public class LlmHttpException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient RequestFailure failure;

  public LlmHttpException(String url, RequestFailure failure) {
    super(failure.key() + " from " + url + ": " + failure.message());
    this.failure = failure;
  }

  public int status() {
    return failure.status();
  }

  public RequestFailure failure() {
    return failure;
  }
}
