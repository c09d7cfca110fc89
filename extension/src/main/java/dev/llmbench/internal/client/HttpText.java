package dev.llmbench.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Small readings of HTTP text shared by the transports. */
final class HttpText {

  /** Characters of a server's body kept in a failure message. */
  static final int EXCERPT = 300;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern TITLE = Pattern.compile("(?is)<title[^>]*>(.*?)</title>");
  private static final Pattern TAG = Pattern.compile("(?s)<[^>]*>");

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

  /**
   * What a server's error body says, in one line: the message of an OpenAI-style JSON error (not the whole
   * object, whose ids differ per response and would keep equal failures apart), the title of an HTML page,
   * or else an excerpt of the text.
   */
  static String errorSummary(String contentType, byte[] body, int length) {
    String text = new String(body, 0, length, StandardCharsets.UTF_8);
    String trimmed = text.strip();
    if (isMediaType(contentType, "application/json") || trimmed.startsWith("{")) {
      try {
        String message = jsonMessage(JSON.readTree(trimmed));
        if (message != null) return Excerpt.of(message, EXCERPT);
      } catch (IOException e) {
        // Not JSON after all, or cut at the excerpt's end: shown as text.
      }
    }
    if (isMediaType(contentType, "text/html") || trimmed.regionMatches(true, 0, "<!doctype html", 0, 14)
        || trimmed.regionMatches(true, 0, "<html", 0, 5)) {
      Matcher title = TITLE.matcher(text);
      String shown = title.find() ? title.group(1) : TAG.matcher(text).replaceAll(" ");
      return "an HTML page: " + Excerpt.of(shown, EXCERPT);
    }
    return Excerpt.of(text, EXCERPT);
  }

  private static String jsonMessage(JsonNode node) {
    if (node == null || !node.isObject()) return null;
    JsonNode error = node.get("error");
    if (error != null && error.isObject() && error.path("message").isTextual()) return error.get("message").asText();
    if (error != null && error.isTextual()) return error.asText();
    if (node.path("message").isTextual()) return node.get("message").asText();
    JsonNode detail = node.get("detail");
    if (detail != null && detail.isTextual()) return detail.asText();
    if (detail != null && detail.isArray() && detail.path(0).path("msg").isTextual()) return detail.get(0).get("msg").asText();
    return null;
  }
}
