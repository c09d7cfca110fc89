package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;
import org.apiguardian.api.API;

/**
 * Sockets with Nagle's algorithm off. OkHttp writes a POST's headers and body separately; with Nagle on,
 * the body waits for the server's ACK of the headers, which adds milliseconds to every request's TTFT.
 */
@API(status = INTERNAL)
public final class NoDelaySocketFactory extends SocketFactory {

  private final SocketFactory delegate = SocketFactory.getDefault();

  private static Socket noDelay(Socket socket) throws IOException {
    socket.setTcpNoDelay(true);
    return socket;
  }

  @Override
  public Socket createSocket() throws IOException {
    return noDelay(delegate.createSocket());
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return noDelay(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return noDelay(delegate.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return noDelay(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
    return noDelay(delegate.createSocket(address, port, localAddress, localPort));
  }
}
