package dev.llmbench.internal.client;

/** Small readings of HTTP text shared by the transports. */
final class HttpText {

  private HttpText() {}

  /** Whether a Content-Type header value names {@code type}, parameters and case aside. */
  static boolean isMediaType(String header, String type) {
    int semi = header.indexOf(';');
    return (semi < 0 ? header : header.substring(0, semi)).strip().equalsIgnoreCase(type);
  }

  /** {@code ConnectException: Connection refused}: the class and the message, on one line. */
  static String describe(Throwable t) {
    String message = t.getMessage();
    return t.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message.strip());
  }
}
