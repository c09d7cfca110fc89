package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Which routes the embedded engine's API key guards, laid out as the servers readiness probes meet: vLLM's
 * own, and a gateway in front of a server.
 */
@API(status = INTERNAL)
public enum KeyedRoutes {
  /**
   * vLLM's {@code --api-key}: {@code /v1/...} needs the key, {@code /health}, {@code /version} and
   * {@code /metrics} stay open; a missing or wrong key answers 401.
   */
  V1("v1"),
  /**
   * A gateway that keys everything, {@code /health} included: 401 without a key, 403 with a wrong one (as API
   * gateways that check a key they were given answer).
   */
  ALL("all");

  private final String spec;

  KeyedRoutes(String spec) {
    this.spec = spec;
  }

  public String spec() {
    return spec;
  }

  /** Whether a request to {@code path} needs the key. */
  boolean guards(String path) {
    return this == ALL || path.startsWith("/v1");
  }

  /** @throws IllegalArgumentException naming the accepted values */
  public static KeyedRoutes parse(String spec) {
    String s = spec == null ? "" : spec.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(r -> r.spec.equals(s)).findFirst().orElseThrow(() -> new IllegalArgumentException(
        "unknown keyed routes '" + spec + "'; write " + Arrays.stream(values()).map(KeyedRoutes::spec)
            .collect(Collectors.joining(" or ")) + " (v1: vLLM's /v1/... only; all: a gateway's, /health included)"));
  }

  @Override
  public String toString() {
    return spec;
  }
}
