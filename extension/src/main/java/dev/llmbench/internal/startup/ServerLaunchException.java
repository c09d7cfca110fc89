package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The server could not be started at all: program not found, not executable, bad working directory. */
@API(status = INTERNAL)
public final class ServerLaunchException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ServerLaunchException(String message, Throwable cause) {
    super(message, cause);
  }
}
