package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** How the embedded engine behaves as a whole, beside the per-request faults of a {@link FaultPlan}. */
@API(status = INTERNAL)
public enum ServerMode {
  /** Serves normally once the startup delay has passed. */
  NORMAL("normal"),
  /** Stays in its loading phase for ever: {@code /health} and generation answer 503 "Loading model". */
  NEVER_READY("never-ready"),
  /** Answers 404 {@code {"detail":"Not Found"}} on every route, as a base URL pointing at the wrong server does. */
  NOT_FOUND("not-found");

  private final String spec;

  ServerMode(String spec) {
    this.spec = spec;
  }

  public String spec() {
    return spec;
  }

  /** @throws IllegalArgumentException naming the accepted modes */
  public static ServerMode parse(String spec) {
    String s = spec == null ? "" : spec.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(m -> m.spec.equals(s)).findFirst().orElseThrow(() -> new IllegalArgumentException(
        "unknown embedded server mode '" + spec + "'; the modes are "
            + Arrays.stream(values()).map(ServerMode::spec).collect(Collectors.joining(", "))
            + " (an API key is its own option, not a mode)"));
  }

  @Override
  public String toString() {
    return spec;
  }
}
