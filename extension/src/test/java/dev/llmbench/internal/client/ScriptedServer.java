package dev.llmbench.internal.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 server on 127.0.0.1 that does what a script says, byte by byte: answer, stall, drop the
 * connection after reading a request, cut a stream. It counts what it received, to compare with the client.
 */
final class ScriptedServer implements AutoCloseable {

  /** One request as read off the wire. */
  record Received(String method, String path, Map<String, String> headers, byte[] body) {}

  /** What to do with one request on a connection; returns whether to keep the connection for another. */
  @FunctionalInterface
  interface Script {
    boolean answer(Received request, Socket socket, OutputStream out, int index) throws Exception;
  }

  private final ServerSocket server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "scripted-server");
    t.setDaemon(true);
    return t;
  });
  private final Script script;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger connections = new AtomicInteger();
  private final List<Received> received = new ArrayList<>();
  private volatile boolean closed;

  ScriptedServer(Script script) throws IOException {
    this.script = script;
    this.server = new ServerSocket(0, 2048, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
  }

  int port() {
    return server.getLocalPort();
  }

  /** Requests read in full. */
  int requests() {
    return requests.get();
  }

  int connections() {
    return connections.get();
  }

  synchronized List<Received> received() {
    return List.copyOf(received);
  }

  private void accept() {
    while (!closed) {
      try {
        Socket socket = server.accept();
        connections.incrementAndGet();
        threads.execute(() -> serve(socket));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      while (true) {
        Received r = read(in);
        if (r == null) return;
        int index = requests.getAndIncrement();
        synchronized (this) {
          received.add(r);
        }
        if (!script.answer(r, socket, out, index)) return;
        out.flush();
      }
    } catch (SocketException e) {
      // The client went away: expected in half of these tests.
    } catch (Exception e) {
      if (!closed) e.printStackTrace();
    }
  }

  /** Reads a request line, headers and a Content-Length body; null at a clean end of the connection. */
  private static Received read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int last4 = 0;
    while (last4 != 0x0D0A0D0A) {
      int b = in.read();
      if (b < 0) return null;
      head.write(b);
      last4 = last4 << 8 | b;
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    if (body.length < length) return null;
    return new Received(requestLine[0], requestLine[1], headers, body);
  }

  // ---- answers ----

  static void headers(OutputStream out, int status, String contentType, long contentLength) throws IOException {
    String head = "HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\n"
        + (contentLength >= 0 ? "Content-Length: " + contentLength : "Transfer-Encoding: chunked") + "\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  static void answer(OutputStream out, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    headers(out, status, contentType, bytes.length);
    out.write(bytes);
    out.flush();
  }

  static void chunk(OutputStream out, byte[] bytes) throws IOException {
    out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.write(bytes);
    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  static void chunk(OutputStream out, String text) throws IOException {
    chunk(out, text.getBytes(StandardCharsets.UTF_8));
  }

  static void lastChunk(OutputStream out) throws IOException {
    out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  /** Closes with a reset instead of a FIN. */
  static void reset(Socket socket) throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    threads.shutdownNow();
  }
}
