package dev.llmbench.engine;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A raw HTTP/1.1 client for tests: writes bytes as given and reads back exactly what came over the wire,
 * including how it ended (a complete response, a FIN, an RST, or silence).
 */
final class Wire implements AutoCloseable {

  /** How reading a response ended. */
  enum End { COMPLETE, EOF, RESET, TIMEOUT }

  /**
   * What was read: the status (-1 if no status line came), headers in lower case, the body (de-chunked), each
   * chunk's payload, and how it ended.
   */
  record Response(int status, Map<String, String> headers, byte[] body, List<byte[]> chunks, End end,
      List<Long> chunkNanos) {
    Response(int status, Map<String, String> headers, byte[] body, List<byte[]> chunks, End end) {
      this(status, headers, body, chunks, end, List.of());
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The {@code data:} payloads of an SSE body, in order (comment lines skipped, CRLF or LF). */
    List<String> events() {
      List<String> data = new ArrayList<>();
      for (String line : text().split("\r?\n")) {
        if (line.startsWith("data: ")) data.add(line.substring(6));
      }
      return data;
    }
  }

  static final String CHAT = "/v1/chat/completions";
  static final String COMPLETIONS = "/v1/completions";

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  Wire(int port) {
    this(port, Duration.ofSeconds(10));
  }

  Wire(int port, Duration readTimeout) {
    try {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) readTimeout.toMillis());
      in = new BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String chatBody(String prompt, int maxTokens, boolean stream) {
    return "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}],\"max_tokens\":" + maxTokens
        + ",\"ignore_eos\":true,\"stream\":" + stream + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}";
  }

  static String post(String path, String body, String... headers) {
    StringBuilder request = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n");
    for (String h : headers) request.append(h).append("\r\n");
    return request.append("\r\n").append(body).toString();
  }

  static String get(String path, String... headers) {
    StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String h : headers) request.append(h).append("\r\n");
    return request.append("\r\n").toString();
  }

  Wire send(String raw) {
    return send(raw.getBytes(StandardCharsets.UTF_8));
  }

  Wire send(byte[] raw) {
    try {
      out.write(raw);
      out.flush();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends {@code raw} and reads one response. */
  Response exchange(String raw) {
    return send(raw).read();
  }

  /** Reads one response, or as much of it as comes before the connection ends or goes silent. */
  Response read() {
    Map<String, String> headers = new LinkedHashMap<>();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    List<byte[]> chunks = new ArrayList<>();
    List<Long> chunkNanos = new ArrayList<>();
    int status = -1;
    try {
      String statusLine = line();
      if (statusLine == null) return new Response(-1, headers, new byte[0], chunks, End.EOF);
      status = Integer.parseInt(statusLine.split(" ")[1]);
      for (String h; !(h = require(line())).isEmpty(); ) {
        int colon = h.indexOf(':');
        headers.put(h.substring(0, colon).toLowerCase(Locale.ROOT), h.substring(colon + 1).strip());
      }
      if (status / 100 == 1) return new Response(status, headers, new byte[0], chunks, End.COMPLETE);
      if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        while (true) {
          String sizeLine = line();
          if (sizeLine == null) return new Response(status, headers, body.toByteArray(), chunks, End.EOF);
          int size = Integer.parseInt(sizeLine.strip(), 16);
          if (size == 0) {
            require(line());
            return new Response(status, headers, body.toByteArray(), chunks, End.COMPLETE, chunkNanos);
          }
          byte[] chunk = in.readNBytes(size);
          body.write(chunk);
          if (chunk.length < size) return new Response(status, headers, body.toByteArray(), chunks, End.EOF);
          chunks.add(chunk);
          chunkNanos.add(System.nanoTime());
          require(line());
        }
      }
      String length = headers.get("content-length");
      byte[] bytes = length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length));
      body.write(bytes);
      boolean whole = length == null || bytes.length == Integer.parseInt(length);
      return new Response(status, headers, body.toByteArray(), chunks, whole ? End.COMPLETE : End.EOF);
    } catch (SocketTimeoutException e) {
      return new Response(status, headers, body.toByteArray(), chunks, End.TIMEOUT);
    } catch (SocketException e) {
      if (String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("reset")) {
        return new Response(status, headers, body.toByteArray(), chunks, End.RESET);
      }
      throw new UncheckedIOException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Everything that arrives until the connection ends or goes silent for the read timeout. */
  String readRaw() {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    try {
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) != -1; ) raw.write(buffer, 0, n);
    } catch (IOException e) {
      // timeout or reset: return what came
    }
    return raw.toString(StandardCharsets.ISO_8859_1);
  }

  /** Reads until the connection ends or goes silent for the read timeout; says which. */
  End readToEnd() {
    try {
      byte[] sink = new byte[8192];
      while (in.read(sink) != -1) {
        // discard
      }
      return End.EOF;
    } catch (SocketTimeoutException e) {
      return End.TIMEOUT;
    } catch (SocketException e) {
      return End.RESET;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String require(String line) throws IOException {
    if (line == null) throw new java.io.EOFException("connection closed inside the headers");
    return line;
  }

  /** A line without CRLF, or null at end of stream. */
  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        byte[] b = line.toByteArray();
        int n = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
        return new String(b, 0, n, StandardCharsets.ISO_8859_1);
      }
      line.write(c);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
