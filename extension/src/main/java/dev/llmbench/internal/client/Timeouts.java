package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The limits of one request, each with the setting it came from, so that a timeout names what fired.
 *
 * @param connect        the longest a connection may take to open
 * @param idle           the longest wait for the next byte of a response (the first included)
 * @param idleSetting    where {@code idle} came from, e.g. {@code llmbench.idle-timeout}
 * @param request        the longest one whole request may take
 * @param requestSetting where {@code request} came from, e.g. {@code llmbench.request-timeout}
 */
@API(status = INTERNAL)
public record Timeouts(Duration connect, Duration idle, String idleSetting, Duration request, String requestSetting) {

  public Timeouts {
    for (Duration d : new Duration[] {connect, idle, request}) {
      if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("timeouts must be positive: " + d);
    }
  }

  /** The endpoint's own limits, connect capped at 10 s. */
  public static Timeouts of(Duration request, Duration idle) {
    Duration connect = request.compareTo(Duration.ofSeconds(10)) < 0 ? request : Duration.ofSeconds(10);
    return new Timeouts(connect, idle, "llmbench.idle-timeout", request, "llmbench.request-timeout");
  }

  /** Where the connect limit comes from, for messages. */
  String connectSetting() {
    return "the connect limit: " + requestSetting + ", at most 10s";
  }

  public String idleMessage() {
    return "no byte for longer than " + idleSetting + " = " + format(idle);
  }

  public String requestMessage() {
    return "the request took longer than " + requestSetting + " = " + format(request);
  }

  /** {@code 2m}, {@code 1.5s}, {@code 200ms}: the form the settings are written in. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0) return ms / 60_000 + "m";
    if (ms % 1000 == 0) return ms / 1000 + "s";
    if (ms >= 1000) return ms / 1000.0 + "s";
    return ms + "ms";
  }
}
