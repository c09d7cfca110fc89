package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * How to reach a real deployment, as the settings say it (nothing resolved yet): extra headers for a gateway,
 * the certificates a TLS server must chain to, and the proxy. {@link ConnectionOptions} resolves them.
 *
 * @param headers          extra request headers; a value may read environment variables as {@code ${NAME}}
 * @param trust            a PEM file of CA certificates, or a PKCS12/JKS trust store; empty for the JVM's CAs
 * @param trustPasswordEnv the environment variable holding the trust store's password, or empty for none
 * @param proxy            where requests go through
 * @param keepAlive        the longest a pooled connection may sit idle and still carry a request; zero for a new
 *                         connection for each request
 */
@API(status = INTERNAL)
public record ConnectionSettings(List<Header> headers, Optional<Path> trust, String trustPasswordEnv, ProxySetting proxy,
    Duration keepAlive) {

  /**
   * Below the 5 s keep-alive of uvicorn (so vLLM and SGLang) and of cpp-httplib (so llama-server), with room for a
   * response's and the next request's way between the two clocks; Ruby's Net::HTTP reuses for 2 s too.
   */
  public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(2);

  /** No extra headers, the JVM's CAs, the proxy from the environment. */
  public static final ConnectionSettings DEFAULT = new ConnectionSettings(List.of(), Optional.empty(), "", ProxySetting.ENV);

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Set<String> RESERVED = Set.of("host", "content-length", "content-type", "accept", "connection",
      "transfer-encoding");

  public ConnectionSettings {
    headers = List.copyOf(headers);
    if (keepAlive.isNegative()) throw new IllegalArgumentException("keepAlive must not be negative: " + keepAlive);
  }

  /** With the {@link #DEFAULT_KEEP_ALIVE}. */
  public ConnectionSettings(List<Header> headers, Optional<Path> trust, String trustPasswordEnv, ProxySetting proxy) {
    this(headers, trust, trustPasswordEnv, proxy, DEFAULT_KEEP_ALIVE);
  }

  public ConnectionSettings withProxy(ProxySetting proxy) {
    return new ConnectionSettings(headers, trust, trustPasswordEnv, proxy, keepAlive);
  }

  public ConnectionSettings withKeepAlive(Duration keepAlive) {
    return new ConnectionSettings(headers, trust, trustPasswordEnv, proxy, keepAlive);
  }

  /**
   * One extra header. Its value is secret: never printed, and masked wherever it could appear in a message.
   *
   * @param template the value, in which {@code ${NAME}} stands for the environment variable NAME
   */
  public record Header(String name, String template) {

    /** The environment variables the value reads. */
    public List<String> variables() {
      List<String> names = new ArrayList<>();
      Matcher m = VARIABLE.matcher(template);
      while (m.find()) names.add(m.group(1));
      return names;
    }

    /** The name only: the value may be a key. */
    @Override
    public String toString() {
      return name + ": ***";
    }
  }

  /**
   * Reads {@code Name=value} pairs separated by commas, e.g. {@code api-key=${AZURE_OPENAI_KEY},X-Team=bench}.
   * Errors name the header, never its value.
   */
  public static List<Header> parseHeaders(String text) {
    List<Header> headers = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String part : text.split(",")) {
      if (part.isBlank()) continue;
      int eq = part.indexOf('=');
      String name = (eq < 0 ? part : part.substring(0, eq)).strip();
      if (eq < 0) {
        throw new IllegalArgumentException("'" + printable(name) + "' has no value; write Name=value pairs separated by "
            + "commas, e.g. api-key=${AZURE_OPENAI_KEY},X-Team=bench");
      }
      if (!TOKEN.matcher(name).matches()) {
        throw new IllegalArgumentException("'" + printable(name) + "' is not a header name (letters, digits and -_.!#$%&'*+^`|~)");
      }
      String lower = name.toLowerCase(Locale.ROOT);
      if (RESERVED.contains(lower)) {
        throw new IllegalArgumentException("header " + name + " is set by LLMBench itself and cannot be replaced");
      }
      if (!seen.add(lower)) throw new IllegalArgumentException("header " + name + " is listed twice");
      String value = part.substring(eq + 1).strip();
      if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("the value of header " + name + " holds a line break");
      }
      headers.add(new Header(name, value));
    }
    return headers;
  }

  private static String printable(String name) {
    return name.length() > 40 ? name.substring(0, 40) + "…" : name;
  }

  /** Replaces {@code ${NAME}} by the variable's value; throws naming the header and the variable when it is unset. */
  static String resolve(Header h, java.util.function.Function<String, String> env) {
    Matcher m = VARIABLE.matcher(h.template());
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = env.apply(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException("header " + h.name() + " reads the environment variable " + m.group(1)
            + ", which is not set; set it, or change llmbench.headers");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * Where requests go through: the proxy the environment names ({@code HTTPS_PROXY}, {@code HTTP_PROXY},
   * {@code NO_PROXY}, as curl and Go read them), none, or one given here.
   *
   * @param mode  {@code env}, {@code none} or {@code url}
   * @param url   the proxy, for {@code url}
   */
  public record ProxySetting(String mode, Optional<URI> url) {

    public static final ProxySetting ENV = new ProxySetting("env", Optional.empty());
    public static final ProxySetting NONE = new ProxySetting("none", Optional.empty());

    /** {@code env}, {@code none}, or a proxy URL such as {@code http://proxy.corp:3128}. */
    public static ProxySetting parse(String text) {
      String t = text.strip();
      if (t.equalsIgnoreCase("env")) return ENV;
      if (t.equalsIgnoreCase("none")) return NONE;
      ProxyRoute.Proxy p = ProxyRoute.Proxy.parse(t, "llmbench.proxy");
      return new ProxySetting("url", Optional.of(p.uri()));
    }

    /** Never the proxy's password. */
    @Override
    public String toString() {
      return url.map(u -> ProxyRoute.Proxy.parse(u.toString(), "llmbench.proxy").toString()).orElse(mode);
    }
  }
}
