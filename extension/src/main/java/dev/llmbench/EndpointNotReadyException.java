package dev.llmbench;

/** The server did not become ready in time: the message names the URL, the last status and the time waited. */
public class EndpointNotReadyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public EndpointNotReadyException(String message, Throwable cause) {
    super(message, cause);
  }
}
