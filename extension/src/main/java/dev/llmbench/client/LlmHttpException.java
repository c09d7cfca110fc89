package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A request that failed, with the HTTP status (0 if none) and an excerpt of what the server said. */
@API(status = EXPERIMENTAL, since = "0.1")
public class LlmHttpException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient RequestFailure failure;

  /**
   * A failed request.
   *
   * @param url the URL the request went to
   * @param failure how it failed
   */
  public LlmHttpException(String url, RequestFailure failure) {
    super(failure.key() + " from " + url + ": " + failure.message());
    this.failure = failure;
  }

  /** {@return the HTTP status of the failure, as {@link RequestFailure#status()} gives it} */
  public int status() {
    return failure.status();
  }

  /** {@return how the request failed} */
  public RequestFailure failure() {
    return failure;
  }
}
