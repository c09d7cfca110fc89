package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The server did not become ready in time: the message names the URL, the last status and the time waited. */
@API(status = EXPERIMENTAL, since = "0.1")
public class EndpointNotReadyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * An endpoint that did not become ready, and why.
   *
   * @param message what the wait saw and how long it waited
   * @param cause what the last probe failed with, or null
   */
  public EndpointNotReadyException(String message, Throwable cause) {
    super(message, cause);
  }
}
