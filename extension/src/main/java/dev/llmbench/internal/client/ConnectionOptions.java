package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.apiguardian.api.API;

/**
 * Everything both HTTP stacks need to reach one server, resolved once: the clean base URL, the headers every
 * request carries (the bearer key, URL credentials as Basic, a gateway's own headers), the certificates a
 * TLS server must chain to, the proxy and the connect limit. Netty (generation requests) and OkHttp (the
 * control plane's GETs) are both built from it, so that they never disagree. The secrets it holds are
 * never printed: {@link #redact} masks them in any text that could carry them, such as a server's error body.
 *
 * @param baseUrl        the server root without credentials, ending in {@code /}, without a trailing {@code /v1}
 * @param headers        name to value, sent on every request; the values are secret
 * @param trust          the trust managers a TLS server's certificate must pass, or null for the JVM's
 * @param trustSource    where {@code trust} came from, for messages
 * @param proxies        which proxy a URL goes through
 * @param connectTimeout the longest a connection (TCP, proxy tunnel and TLS handshake) may take
 * @param secrets        the values that must never appear in any output: header values, the key, passwords
 * @param keepAlive      the longest a pooled connection may sit idle and still carry a request; zero for none
 */
@API(status = INTERNAL)
public record ConnectionOptions(URI baseUrl, Map<String, String> headers, TrustManagerFactory trust, String trustSource,
    ProxyRoute proxies, Duration connectTimeout, List<String> secrets, Duration keepAlive) {

  public ConnectionOptions {
    headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    secrets = List.copyOf(secrets);
  }

  /** A plain server: a bearer key (or none), no proxy, the JVM's CAs. */
  public static ConnectionOptions plain(URI url, String apiKey, Duration connectTimeout) {
    return of(url, apiKey, ConnectionSettings.DEFAULT.withProxy(ConnectionSettings.ProxySetting.NONE), k -> null,
        connectTimeout);
  }

  /**
   * Resolves {@code settings} for {@code url}.
   *
   * @param apiKey the bearer key, or null or blank for none
   * @param env    the environment, for header values and the trust store's password
   * @throws IllegalArgumentException naming what is wrong and the fix, never a secret
   */
  public static ConnectionOptions of(URI url, String apiKey, ConnectionSettings settings, Function<String, String> env,
      Duration connectTimeout) {
    Map<String, String> headers = new LinkedHashMap<>();
    String userInfo = url.getRawUserInfo();
    boolean key = apiKey != null && !apiKey.isBlank();
    if (userInfo != null) {
      if (key) {
        throw new IllegalArgumentException("llmbench.base-url carries credentials and an API key is set too; both would be "
            + "the Authorization header: keep one (unset the key's variable, or name another with llmbench.api-key-env)");
      }
      headers.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          URLDecoder.decode(userInfo.replace("+", "%2B"), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)));
    } else if (key) {
      headers.put("Authorization", "Bearer " + apiKey.strip());
    }
    for (ConnectionSettings.Header h : settings.headers()) {
      headers.keySet().removeIf(n -> n.equalsIgnoreCase(h.name())); // an explicit header wins over the key
      headers.put(h.name(), ConnectionSettings.resolve(h, env));
    }
    TrustManagerFactory trust = settings.trust().map(p -> loadTrust(p, settings.trustPasswordEnv(), env)).orElse(null);
    ProxyRoute proxies = new ProxyRoute(settings.proxy(), env);
    URI base = normalise(url);
    List<String> secrets = new ArrayList<>();
    for (String v : headers.values()) {
      secrets.add(v);
      int space = v.indexOf(' ');
      if (space > 0) secrets.add(v.substring(space + 1)); // the key after "Bearer "
    }
    if (userInfo != null && userInfo.contains(":")) {
      secrets.add(URLDecoder.decode(userInfo.substring(userInfo.indexOf(':') + 1).replace("+", "%2B"), StandardCharsets.UTF_8));
    }
    proxies.proxyFor(base).ifPresent(p -> secrets.addAll(p.secrets())); // also checks the proxy's URL now
    secrets.removeIf(s -> s.length() < 4); // too short to mask without mangling ordinary text
    secrets.sort((a, b) -> b.length() - a.length());
    return new ConnectionOptions(base, headers, trust, settings.trust().map(Path::toString).orElse("the JVM's CAs"),
        proxies, connectTimeout, secrets, settings.keepAlive());
  }

  /** The server root: credentials and a trailing {@code /v1} dropped, one {@code /} at the end. */
  public static URI normalise(URI uri) {
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
    if (path.endsWith("/v1")) path = path.substring(0, path.length() - 3);
    try {
      return new URI(uri.getScheme().toLowerCase(Locale.ROOT), null, uri.getHost(), uri.getPort(), null, null, null)
          .resolve(path.isEmpty() ? "/" : path + "/");
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: " + redactUrl(uri.toString()), e);
    }
  }

  /** {@code text} with every URL's credentials replaced by {@code ***}. */
  public static String redactUrl(String text) {
    return text == null ? null : text.replaceAll("(?i)([a-z][a-z0-9+.-]*://)[^/@\\s]+@", "$1***@");
  }

  /** The URL of {@code path} under the base URL, e.g. {@code /v1/chat/completions}. */
  public URI resolve(String path) {
    return baseUrl.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  public boolean isTls() {
    return "https".equals(baseUrl.getScheme());
  }

  /** The trust manager both stacks check certificates with, or null for the JVM's default. */
  public X509TrustManager trustManager() {
    if (trust == null) return null;
    for (TrustManager tm : trust.getTrustManagers()) {
      if (tm instanceof X509TrustManager x) return x;
    }
    throw new IllegalStateException("no X.509 trust manager in " + trustSource);
  }

  /** {@code text} with every secret masked as {@code ***} and URL credentials dropped. */
  public String redact(String text) {
    if (text == null) return null;
    String out = redactUrl(text);
    for (String s : secrets()) out = out.replace(s, "***");
    return out;
  }

  /** The URL and the header names, never a value. */
  @Override
  public String toString() {
    return "ConnectionOptions[" + baseUrl + ", headers " + headers.keySet() + ", trust " + trustSource + "]";
  }

  private static TrustManagerFactory loadTrust(Path file, String passwordEnv, Function<String, String> env) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("llmbench.tls.trust names " + file + ", which is not a readable file");
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    try {
      KeyStore store;
      if (name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer")) {
        store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(file)) {
          certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certificates.isEmpty()) {
          throw new IllegalArgumentException("llmbench.tls.trust names " + file + ", which holds no certificate");
        }
        int i = 0;
        for (Certificate c : certificates) store.setCertificateEntry("ca-" + i++, c);
      } else {
        store = KeyStore.getInstance(name.endsWith(".jks") ? "JKS" : "PKCS12");
        String password = passwordEnv == null || passwordEnv.isBlank() ? null : env.apply(passwordEnv);
        if (passwordEnv != null && !passwordEnv.isBlank() && password == null) {
          throw new IllegalArgumentException("llmbench.tls.trust-password-env names " + passwordEnv + ", which is not set");
        }
        try (InputStream in = Files.newInputStream(file)) {
          store.load(in, password == null ? null : password.toCharArray());
        }
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("llmbench.tls.trust " + file + " could not be read as PEM certificates (.pem, "
          + ".crt, .cer) or a trust store (.p12, .pfx, .jks): " + HttpText.describe(e), e);
    }
  }
}
