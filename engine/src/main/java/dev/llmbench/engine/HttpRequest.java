package dev.llmbench.engine;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP/1.1 request as read off the wire: request line, headers, and the whole body, whether it came with
 * a {@code Content-Length} or in chunks.
 *
 * @param method  e.g. {@code POST}
 * @param path    the target without its query string
 * @param version {@code HTTP/1.1} or {@code HTTP/1.0}
 * @param headers names in lower case, values in arrival order
 * @param body    the decoded body, empty when there was none
 */
record HttpRequest(String method, String path, String version, Map<String, List<String>> headers, byte[] body) {

  static final int MAX_LINE = 16 * 1024;
  static final int MAX_HEADER_BYTES = 64 * 1024;
  static final int MAX_BODY = 32 * 1024 * 1024;

  /** A request the server refuses with {@code status}, after which it closes the connection. */
  static final class BadRequestException extends IOException {
    final int status;

    BadRequestException(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  Optional<String> header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /** Whether the client lets the connection stay open after the response (HTTP/1.1 does unless told not to). */
  boolean keepAlive() {
    String connection = header("connection").orElse("").toLowerCase(Locale.ROOT);
    return "HTTP/1.1".equals(version) ? !connection.contains("close") : connection.contains("keep-alive");
  }

  /**
   * Reads the next request, or returns null when the peer closed the connection between requests. Answers
   * {@code Expect: 100-continue} on {@code out} before reading the body, as curl waits for it.
   */
  static HttpRequest read(InputStream in, OutputStream out) throws IOException {
    String requestLine;
    do {
      requestLine = readLine(in, MAX_LINE, true);
      if (requestLine == null) return null;
    } while (requestLine.isEmpty()); // RFC 9112 2.2: ignore empty lines before a request line
    String[] parts = requestLine.split(" ");
    if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
      throw new BadRequestException(400, "malformed request line: " + abbreviate(requestLine));
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    int headerBytes = 0;
    for (String line; !(line = readLine(in, MAX_LINE, false)).isEmpty(); ) {
      headerBytes += line.length();
      if (headerBytes > MAX_HEADER_BYTES) throw new BadRequestException(431, "request headers exceed " + MAX_HEADER_BYTES + " bytes");
      int colon = line.indexOf(':');
      if (colon <= 0) throw new BadRequestException(400, "malformed header line: " + abbreviate(line));
      headers.computeIfAbsent(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(line.substring(colon + 1).strip());
    }
    String target = parts[1];
    int query = target.indexOf('?');
    HttpRequest head = new HttpRequest(parts[0], query < 0 ? target : target.substring(0, query), parts[2],
        headers, new byte[0]);
    if (head.header("expect").filter(e -> e.equalsIgnoreCase("100-continue")).isPresent()
        && "HTTP/1.1".equals(head.version())) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
    return new HttpRequest(head.method, head.path, head.version, headers, readBody(head, in));
  }

  private static byte[] readBody(HttpRequest head, InputStream in) throws IOException {
    if (head.header("transfer-encoding").filter(t -> t.toLowerCase(Locale.ROOT).contains("chunked")).isPresent()) {
      return readChunked(in);
    }
    Optional<String> length = head.header("content-length");
    if (length.isEmpty()) return new byte[0];
    long n;
    try {
      n = Long.parseLong(length.get());
    } catch (NumberFormatException e) {
      throw new BadRequestException(400, "Content-Length is not a number: " + abbreviate(length.get()));
    }
    if (n < 0) throw new BadRequestException(400, "negative Content-Length " + n);
    if (n > MAX_BODY) throw new BadRequestException(413, "request body of " + n + " bytes exceeds " + MAX_BODY);
    byte[] body = in.readNBytes((int) n);
    if (body.length < n) throw new EOFException("body ended after " + body.length + " of " + n + " bytes");
    return body;
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in, MAX_LINE, false);
      int semicolon = sizeLine.indexOf(';'); // chunk extensions carry nothing we need
      String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip();
      int size;
      try {
        size = Integer.parseInt(hex, 16);
      } catch (NumberFormatException e) {
        throw new BadRequestException(400, "malformed chunk size: " + abbreviate(sizeLine));
      }
      if (size < 0 || body.size() + (long) size > MAX_BODY) throw new BadRequestException(413, "chunked body exceeds " + MAX_BODY + " bytes");
      if (size == 0) break;
      byte[] chunk = in.readNBytes(size);
      if (chunk.length < size) throw new EOFException("chunk ended after " + chunk.length + " of " + size + " bytes");
      body.write(chunk);
      if (!readLine(in, 2, false).isEmpty()) throw new BadRequestException(400, "chunk not followed by CRLF");
    }
    while (!readLine(in, MAX_LINE, false).isEmpty()) {
      // trailers: read and ignored
    }
    return body.toByteArray();
  }

  /**
   * A line without its CRLF (a bare LF is accepted too). At the start of a request, end of stream returns
   * null: the client closed a kept-alive connection, which is normal.
   */
  private static String readLine(InputStream in, int max, boolean startOfRequest) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') line.setLength(end - 1);
        return line.toString();
      }
      if (line.length() >= max) throw new BadRequestException(startOfRequest ? 414 : 431, "line longer than " + max + " bytes");
      line.append((char) c); // ISO-8859-1, as RFC 9110 reads header bytes
    }
    if (startOfRequest && line.length() == 0) return null;
    throw new EOFException("connection closed in the middle of a request");
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
