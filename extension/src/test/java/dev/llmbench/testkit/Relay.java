package dev.llmbench.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A byte pump on 127.0.0.1 in front of a server on 127.0.0.1, to put what a real deployment has between client
 * and server into a test: TLS termination with the test CA's certificate ({@link #tls}), or an HTTP proxy
 * that opens CONNECT tunnels ({@link #connectProxy}) to 127.0.0.1 whatever host is asked for, so that a
 * request reaches its server only if it really went through the proxy.
 */
public final class Relay implements AutoCloseable {

  private final ServerSocket server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "test-relay");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger tunnels = new AtomicInteger();
  private final StringBuilder proxyHeads = new StringBuilder();

  private Relay(ServerSocket server, int upstreamPort, boolean proxy) {
    this.server = server;
    threads.execute(() -> {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          connections.incrementAndGet();
          threads.execute(() -> serve(s, upstreamPort, proxy));
        } catch (IOException e) {
          return;
        }
      }
    });
  }

  /** TLS on 127.0.0.1 (certificate for localhost and 127.0.0.1, signed by src/test/resources/tls/ca.pem). */
  public static Relay tls(int upstreamPort) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Relay.class.getResourceAsStream("/tls/server.p12")) {
      keys.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, "changeit".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    return new Relay(tls.getServerSocketFactory().createServerSocket(0, 512, InetAddress.getLoopbackAddress()), upstreamPort,
        false);
  }

  /** An HTTP proxy that answers CONNECT host:port by a tunnel to 127.0.0.1:port, and refuses anything else. */
  public static Relay connectProxy() throws IOException {
    return new Relay(new ServerSocket(0, 512, InetAddress.getLoopbackAddress()), -1, true);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Tunnels a proxy opened. */
  public int tunnels() {
    return tunnels.get();
  }

  /** Every CONNECT request's head, as the proxy received it. */
  public synchronized String proxyHeads() {
    return proxyHeads.toString();
  }

  private void serve(Socket client, int upstreamPort, boolean proxy) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      int port = upstreamPort;
      if (proxy) {
        String head = head(in);
        synchronized (this) {
          proxyHeads.append(head);
        }
        String[] line = head.split("\r\n")[0].split(" ");
        if (!line[0].equals("CONNECT")) {
          out.write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
              .getBytes(StandardCharsets.ISO_8859_1));
          return;
        }
        port = Integer.parseInt(line[1].substring(line[1].lastIndexOf(':') + 1));
        tunnels.incrementAndGet();
        out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port)) {
        upstream.setTcpNoDelay(true);
        client.setTcpNoDelay(true);
        threads.execute(() -> pump(client, upstream));
        pump(upstream, client);
      }
    } catch (IOException e) {
      // One side went away.
    }
  }

  private static String head(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int last4 = 0;
    while (last4 != 0x0D0A0D0A) {
      int b = in.read();
      if (b < 0) throw new IOException("closed in the head");
      head.write(b);
      last4 = last4 << 8 | b;
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private static void pump(Socket from, Socket to) {
    byte[] buf = new byte[16384];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buf)) >= 0) {
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // closed
    } finally {
      try {
        to.close();
      } catch (IOException ignored) {
        // already
      }
      try {
        from.close();
      } catch (IOException ignored) {
        // already
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    threads.shutdownNow();
  }
}
