package dev.llmbench.internal.client;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/** Where a connection goes: the server, and the proxy on the way if any. Connections are pooled per route. */
record NettyRoute(String scheme, String host, int port, Optional<ProxyRoute.Proxy> proxy) {

  static NettyRoute of(URI uri, ConnectionOptions options) {
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    return new NettyRoute(scheme, uri.getHost(), ProxyRoute.port(uri), options.proxies().proxyFor(uri));
  }

  boolean tls() {
    return "https".equals(scheme);
  }

  /** A plain-HTTP request through a proxy goes to the proxy in absolute form; https tunnels instead. */
  boolean absoluteForm() {
    return proxy.isPresent() && !tls();
  }
}
