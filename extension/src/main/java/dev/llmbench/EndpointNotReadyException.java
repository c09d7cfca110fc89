package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The server did not become ready in time: the message names the URL, the last status and the time waited. */
@API(status = EXPERIMENTAL, since = "0.1")
public class EndpointNotReadyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public EndpointNotReadyException(String message, Throwable cause) {
    super(message, cause);
  }
}
