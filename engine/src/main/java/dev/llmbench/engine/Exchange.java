package dev.llmbench.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One request and its response on a connection of {@link LoopbackHttpServer}. A handler answers once,
 * whole ({@link #respond}) or in chunks ({@link #startChunked}), or misbehaves on purpose: closes or resets
 * the connection, or goes silent.
 */
final class Exchange {

  private static final Map<Integer, String> REASONS = Map.ofEntries(
      Map.entry(200, "OK"), Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"),
      Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"), Map.entry(413, "Content Too Large"),
      Map.entry(414, "URI Too Long"), Map.entry(429, "Too Many Requests"),
      Map.entry(431, "Request Header Fields Too Large"), Map.entry(500, "Internal Server Error"),
      Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"));

  final HttpRequest request;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private boolean started;
  private boolean complete;
  private boolean detached;
  private boolean closeAfter;

  Exchange(HttpRequest request, Socket socket, InputStream in, OutputStream out) {
    this.request = request;
    this.socket = socket;
    this.in = in;
    this.out = out;
    this.closeAfter = !request.keepAlive();
  }

  /** A whole response with a {@code Content-Length}. {@code headers} are name, value pairs. */
  void respond(int status, String contentType, byte[] body, String... headers) throws IOException {
    StringBuilder head = statusAndHeaders(status, contentType, headers);
    head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!"HEAD".equals(request.method())) out.write(body); // curl -I: the headers only
    out.flush();
    complete = true;
  }

  /**
   * Starts a streamed response, written in chunks of {@code Transfer-Encoding: chunked} (or, to an HTTP/1.0
   * client, raw until the connection closes). The headers are flushed at once, as real servers do.
   */
  ChunkedBody startChunked(int status, String contentType, String... headers) throws IOException {
    boolean chunked = "HTTP/1.1".equals(request.version());
    if (!chunked) closeAfter = true;
    StringBuilder head = statusAndHeaders(status, contentType, headers);
    if (chunked) head.append("Transfer-Encoding: chunked\r\n");
    head.append("\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return new ChunkedBody(chunked);
  }

  private StringBuilder statusAndHeaders(int status, String contentType, String... headers) {
    if (started) throw new IllegalStateException("a response was already started for " + request.path());
    started = true;
    StringBuilder head = new StringBuilder(256)
        .append("HTTP/1.1 ").append(status).append(' ').append(REASONS.getOrDefault(status, "Status")).append("\r\n")
        .append("Server: llmbench-embedded\r\n")
        .append("Content-Type: ").append(contentType).append("\r\n");
    for (int i = 0; i + 1 < headers.length; i += 2) head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
    if (closeAfter) head.append("Connection: close\r\n");
    return head;
  }

  /** Closes the connection after this response, whatever the client asked. */
  void closeAfterResponse() {
    closeAfter = true;
  }

  /** Closes the connection now with a FIN, whatever has been sent so far: no more responses on it. */
  void closeNow() {
    detached = true;
    quietlyClose(false);
  }

  /** Resets the connection now: SO_LINGER 0 makes close send an RST instead of a FIN. */
  void resetNow() {
    detached = true;
    quietlyClose(true);
  }

  /**
   * Sends nothing more and keeps the connection open until the client closes it (or the server stops), as a
   * hung server does: whatever the client sends meanwhile is read and dropped.
   */
  void goSilent() {
    detached = true;
    try {
      socket.setSoTimeout(0);
      byte[] sink = new byte[4096];
      while (in.read(sink) != -1) {
        // discard
      }
    } catch (IOException e) {
      // the client or the server closed it
    } finally {
      quietlyClose(false);
    }
  }

  private void quietlyClose(boolean reset) {
    try {
      if (reset) socket.setSoLinger(true, 0);
      socket.close();
    } catch (IOException e) {
      // already gone
    }
  }

  boolean started() {
    return started;
  }

  /** Whether the connection can carry the next request. */
  boolean reusable() {
    return complete && !closeAfter && !detached;
  }

  boolean detached() {
    return detached;
  }

  static String reason(int status) {
    return REASONS.getOrDefault(status, "Status");
  }

  /** The body of a streamed response: each write is one chunk, flushed at once. */
  final class ChunkedBody {
    private final boolean chunked;

    private ChunkedBody(boolean chunked) {
      this.chunked = chunked;
    }

    /** Writes {@code data} as one chunk and flushes it, so it leaves in one segment when it fits. */
    void write(byte[] data) throws IOException {
      if (data.length == 0) return; // an empty chunk would end the body
      if (chunked) out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(data);
      if (chunked) out.write('\r');
      if (chunked) out.write('\n');
      out.flush();
    }

    /** Ends the body properly: the zero-length chunk, or for HTTP/1.0 the close that follows. */
    void finish() throws IOException {
      if (chunked) {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      complete = true;
    }
  }
}
