package dev.llmbench.internal.core;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * What waiting cannot change, on every route the probes call: a refused key (401, 403), a client error but the
 * few that clear (408, 425, 429), an untrusted certificate. Each rule throws {@link CannotBecomeReadyException} with the
 * cause and the fix.
 */
final class ReadinessRules {

  private final EndpointSpec config;
  private final URI baseUrl;

  ReadinessRules(EndpointSpec config, URI baseUrl) {
    this.config = config;
    this.baseUrl = baseUrl;
  }

  /**
   * Whether a GET answered 200; logs any other answer, and throws for one that waiting cannot change: 401 and
   * 403 (the key), any other client error but the few that do clear (408, 425, 429).
   */
  boolean answeredOk(ReadinessLog log, String request, Optional<OpenAiClient.HttpAnswer> answer) {
    int status = answer.map(OpenAiClient.HttpAnswer::status).orElse(0);
    if (status == 200) return true;
    String body = Excerpt.of(answer.map(OpenAiClient.HttpAnswer::body).orElse(""), 200);
    log.saw(request + " answered " + status + " " + body);
    refused(status, request);
    if (clientError(status)) {
      throw new CannotBecomeReadyException(request + " answered " + status + " " + body + ", a client error that waiting does not "
          + "change; check llmbench.base-url (" + (baseUrl.getScheme().equals("https") ? "https:// to a "
          + "plain-HTTP port, or the wrong server" : "http:// to a TLS port answers 400, or the wrong server")
          + ") and llmbench.headers", null);
    }
    return false;
  }

  /** A 4xx but the ones that clear by themselves: 408 Request Timeout, 425 Too Early, 429 Too Many Requests. */
  static boolean clientError(int status) {
    return status >= 400 && status < 500 && status != 408 && status != 425 && status != 429;
  }

  /**
   * Whether a route probe's failure refuses the route for good rather than a server still starting: a client error
   * but the few that clear, 501 Not Implemented, or an error object in a 200. vLLM answers a route its runner does
   * not serve with each of these by version (the error at 200 until about 0.10, then 501, then no route: 404);
   * llama-server answers 501 {@code not_supported_error}.
   */
  static boolean refusesRoute(RequestFailure failure) {
    return clientError(failure.status()) || failure.status() == 501
        || failure.status() == 200 && failure.kind() == ErrorKind.STREAM_ERROR;
  }

  /** A certificate that does not chain to a trusted CA or does not name the host, rather than a protocol mismatch. */
  static boolean untrustedCertificate(SSLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException || t instanceof java.security.cert.CertPathValidatorException
          || String.valueOf(t.getMessage()).contains("PKIX")) {
        return true;
      }
    }
    return false;
  }

  /** A 401 or 403 does not clear by waiting: the key is missing or wrong. Names the variable, never the value. */
  void refused(int status, String request) {
    if (status != 401 && status != 403) return;
    String variable = config.apiKeyEnv();
    String key = System.getenv(variable);
    String found = key == null || key.isBlank() ? "which is not set" : "which is set (" + key.length() + " characters)";
    String headers = config.connection().headers().isEmpty() ? "" : "; the headers of llmbench.headers went too, check "
        + "their variables";
    throw new CannotBecomeReadyException(request + " answered " + status + (status == 401 ? " Unauthorized" : " Forbidden")
        + ": the bearer key comes from the environment variable " + variable + ", " + found
        + "; set it to the server's key, or name another variable with llmbench.api-key-env" + headers, null);
  }

  /** A TLS error: an untrusted certificate, or a TLS client talking to a plain-HTTP server (or the reverse). */
  static CannotBecomeReadyException tls(SSLException e) {
    if (untrustedCertificate(e)) {
      return new CannotBecomeReadyException("the server's TLS certificate is not trusted (" + e.getClass().getSimpleName() + ": "
          + e.getMessage() + "); set llmbench.tls.trust to its CA's PEM file or a trust store, and check that the "
          + "host in llmbench.base-url is the one the certificate names", e);
    }
    return protocol(e);
  }

  /** An answer in another protocol than the URL's. */
  static CannotBecomeReadyException protocol(IOException e) {
    return new CannotBecomeReadyException("the connection does not speak the URL's protocol (" + e.getClass().getSimpleName() + ": "
        + e.getMessage() + "); use http:// for a plain-HTTP server and https:// for a TLS one", e);
  }
}
