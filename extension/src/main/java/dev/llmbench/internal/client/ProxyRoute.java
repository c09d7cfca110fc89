package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Which proxy, if any, a request to a URL goes through. From the environment it reads what curl and Go read:
 * {@code HTTPS_PROXY} for https URLs and {@code HTTP_PROXY} for http ones (upper case first, then lower
 * case), and {@code NO_PROXY}: {@code *}, host names, domain suffixes ({@code .corp} or {@code corp}) and IP
 * addresses, each with an optional port. Loopback addresses never go through a proxy, as in Go: the
 * embedded engine and a server on the same machine are reached directly.
 */
@API(status = INTERNAL)
public final class ProxyRoute {

  private final ConnectionSettings.ProxySetting setting;
  private final Function<String, String> env;

  public ProxyRoute(ConnectionSettings.ProxySetting setting, Function<String, String> env) {
    this.setting = setting;
    this.env = env;
  }

  /** The proxy for {@code target}, or empty to connect directly. */
  public Optional<Proxy> proxyFor(URI target) {
    if ("none".equals(setting.mode()) || isLoopback(target.getHost())) return Optional.empty();
    if ("url".equals(setting.mode())) return Optional.of(Proxy.parse(setting.url().orElseThrow().toString(), "llmbench.proxy"));
    boolean https = "https".equalsIgnoreCase(target.getScheme());
    String name = https ? "HTTPS_PROXY" : "HTTP_PROXY";
    Optional<String> spec = variable(name);
    if (spec.isEmpty()) return Optional.empty();
    if (bypassed(target, variable("NO_PROXY").orElse(""))) return Optional.empty();
    return Optional.of(Proxy.parse(spec.get(), "the environment variable " + name));
  }

  private Optional<String> variable(String upper) {
    return Stream.of(upper, upper.toLowerCase(Locale.ROOT)).map(env).filter(v -> v != null && !v.isBlank())
        .findFirst().map(String::strip);
  }

  static boolean bypassed(URI target, String noProxy) {
    String host = strip(target.getHost().toLowerCase(Locale.ROOT));
    int port = port(target);
    for (String raw : noProxy.split(",")) {
      String entry = raw.strip().toLowerCase(Locale.ROOT);
      if (entry.isEmpty()) continue;
      if (entry.equals("*")) return true;
      int entryPort = -1;
      int colon = entry.lastIndexOf(':');
      if (colon > 0 && entry.indexOf(':') == colon && entry.substring(colon + 1).matches("\\d+")) {
        entryPort = Integer.parseInt(entry.substring(colon + 1));
        entry = entry.substring(0, colon);
      }
      if (entryPort >= 0 && entryPort != port) continue;
      entry = strip(entry);
      String domain = entry.startsWith(".") ? entry.substring(1) : entry;
      if (host.equals(domain) || host.endsWith("." + domain)) return true;
    }
    return false;
  }

  private static String strip(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  static int port(URI uri) {
    if (uri.getPort() > 0) return uri.getPort();
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  static boolean isLoopback(String host) {
    if (host == null) return false;
    String h = strip(host.toLowerCase(Locale.ROOT));
    if (h.equals("localhost") || h.endsWith(".localhost")) return true;
    if (!h.matches("[0-9.]+") && !h.contains(":")) return false; // a name: not resolved here
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * An HTTP proxy. Credentials, when its URL has them, are sent as {@code Proxy-Authorization: Basic}; they
   * are never printed.
   */
  @API(status = INTERNAL)
  public record Proxy(String host, int port, Optional<String> user, Optional<String> password) {

    /** Reads {@code http://[user:password@]host[:port]} (a bare {@code host:port} too); {@code source} names where it came from. */
    public static Proxy parse(String text, String source) {
      String t = text.contains("://") ? text : "http://" + text;
      URI uri;
      try {
        uri = URI.create(t);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + " is not a proxy URL; write it like http://proxy.corp:3128");
      }
      if (!"http".equalsIgnoreCase(uri.getScheme())) {
        throw new IllegalArgumentException(source + " names a " + uri.getScheme() + ":// proxy; LLMBench speaks to proxies "
            + "in plain HTTP (https targets go through a CONNECT tunnel): write it like http://proxy.corp:3128");
      }
      if (uri.getHost() == null) {
        throw new IllegalArgumentException(source + " has no host; write it like http://proxy.corp:3128");
      }
      int port = uri.getPort() > 0 ? uri.getPort() : 80;
      Optional<String> user = Optional.empty();
      Optional<String> password = Optional.empty();
      String info = uri.getRawUserInfo();
      if (info != null) {
        int colon = info.indexOf(':');
        user = Optional.of(decode(colon < 0 ? info : info.substring(0, colon)));
        password = colon < 0 ? Optional.empty() : Optional.of(decode(info.substring(colon + 1)));
      }
      return new Proxy(uri.getHost(), port, user, password);
    }

    private static String decode(String s) {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    URI uri() {
      String info = user.map(u -> u + password.map(p -> ":" + p).orElse("") + "@").orElse("");
      return URI.create("http://" + info + host + ":" + port);
    }

    /** The secrets to mask in messages. */
    List<String> secrets() {
      return password.stream().toList();
    }

    /** {@code http://proxy.corp:3128}, never the credentials. */
    @Override
    public String toString() {
      return "http://" + (user.isPresent() ? "***@" : "") + host + ":" + port;
    }
  }
}
