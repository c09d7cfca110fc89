package dev.llmbench.engine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP/1.1 server on 127.0.0.1: one daemon thread per connection, keep-alive, bodies by
 * {@code Content-Length} or chunks, streamed responses in chunks. Written for the embedded engine instead of
 * the JDK's {@code com.sun.net.httpserver}, whose sockets keep Nagle's algorithm on unless a JVM-wide system
 * property says otherwise, and which cannot misbehave on the wire the way fault injection needs.
 *
 * <p>Every accepted socket has {@code TCP_NODELAY}: with Nagle on, an SSE event written right after another
 * waits for the client's delayed ACK, about 40 ms on Linux. A thread per connection keeps the hand-off from
 * the engine to the socket at one wake-up, as it was; 1,024 streams are 1,024 mostly parked threads.
 */
final class LoopbackHttpServer implements AutoCloseable {

  /** Answers one request. An IOException means the client went away; the connection is then closed. */
  interface Handler {
    void handle(Exchange exchange) throws IOException, InterruptedException;
  }

  static final int BACKLOG = 4096;
  private static final int BUFFER = 16 * 1024;

  private final ServerSocket serverSocket;
  private final Handler handler;
  private final int keepAliveMillis;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final Thread acceptor;
  private volatile boolean closed;

  /**
   * @param port      0 for a free one
   * @param keepAlive how long an idle connection stays open waiting for its next request
   */
  LoopbackHttpServer(int port, Duration keepAlive, Handler handler) throws IOException {
    this.handler = handler;
    this.keepAliveMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, keepAlive.toMillis()));
    this.serverSocket = new ServerSocket();
    serverSocket.setReuseAddress(true);
    serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
    this.acceptor = new Thread(this::acceptLoop, "llmbench-embedded-accept-" + port());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return serverSocket.getLocalPort();
  }

  /** Connections open now. */
  int openConnections() {
    return connections.size();
  }

  /** Connections accepted since the start. */
  long acceptedConnections() {
    return accepted.get();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket socket;
      try {
        socket = serverSocket.accept();
      } catch (IOException e) {
        if (closed) return;
        pause(); // e.g. out of file descriptors: retry, without spinning
        continue;
      }
      try {
        socket.setTcpNoDelay(true);
      } catch (IOException e) {
        closeQuietly(socket);
        continue;
      }
      Connection connection = new Connection(socket, accepted.incrementAndGet());
      connections.add(connection);
      if (closed) connection.close(); // raced with close(): do not leave it running
      connection.thread.start();
    }
  }

  private static void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing to do
    }
  }

  private final class Connection implements Runnable {
    final Socket socket;
    final Thread thread;

    Connection(Socket socket, long number) {
      this.socket = socket;
      this.thread = new Thread(this, "llmbench-embedded-http-" + port() + "-" + number);
      thread.setDaemon(true);
    }

    @Override
    public void run() {
      try {
        InputStream in = new BufferedInputStream(socket.getInputStream(), BUFFER);
        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), BUFFER);
        while (!closed && serve(in, out)) {
          // next request on the same connection
        }
      } catch (IOException | RuntimeException e) {
        // the client went away, or the server is closing
      } finally {
        connections.remove(this);
        closeQuietly(socket);
      }
    }

    /** Serves one request; returns whether the connection may carry another. */
    private boolean serve(InputStream in, OutputStream out) throws IOException {
      HttpRequest request;
      try {
        socket.setSoTimeout(keepAliveMillis);
        request = HttpRequest.read(in, out);
        socket.setSoTimeout(0);
      } catch (SocketTimeoutException e) {
        return false; // idle past the keep-alive limit
      } catch (HttpRequest.BadRequestException e) {
        byte[] body = (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + e.status + " " + Exchange.reason(e.status) + "\r\nContent-Type: text/plain\r\n"
            + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        return false;
      }
      if (request == null) return false;
      Exchange exchange = new Exchange(request, socket, in, out);
      try {
        handler.handle(exchange);
      } catch (InterruptedException e) {
        return false; // the server is closing
      } catch (RuntimeException e) {
        if (!exchange.started()) {
          exchange.closeAfterResponse();
          exchange.respond(500, "text/plain", ("internal error: " + e + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return false;
      }
      return exchange.reusable();
    }

    void close() {
      closeQuietly(socket);
      thread.interrupt();
    }
  }

  /** Stops accepting, closes every connection and waits briefly for their threads. */
  @Override
  public void close() {
    closed = true;
    try {
      serverSocket.close();
    } catch (IOException e) {
      // closing anyway
    }
    connections.forEach(Connection::close);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    try {
      acceptor.join(1000);
      for (Connection c : connections) {
        long left = deadline - System.nanoTime();
        if (left <= 0) break;
        c.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
