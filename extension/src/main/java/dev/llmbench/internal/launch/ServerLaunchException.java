package dev.llmbench.internal.launch;

/** The server could not be started at all: program not found, not executable, bad working directory. */
public final class ServerLaunchException extends RuntimeException {

  public ServerLaunchException(String message, Throwable cause) {
    super(message, cause);
  }
}
