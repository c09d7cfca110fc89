package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A rate with its unit, per second.
 *
 * @param perSecond how many units each second
 * @param unit      what is counted
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Rate(double perSecond, Unit unit) {

  /** What a rate counts. */
  public enum Unit {
    /** Tokens. */
    TOKENS,
    /** Requests. */
    REQUESTS;

    /** {@return {@code tok/s} or {@code req/s}} */
    public String symbol() {
      return this == TOKENS ? "tok/s" : "req/s";
    }
  }

  /**
   * {@return so many tokens per second}
   *
   * @param value tokens per second
   */
  public static Rate tokensPerSecond(double value) {
    return new Rate(value, Unit.TOKENS);
  }

  /**
   * {@return so many requests per second}
   *
   * @param value requests per second
   */
  public static Rate requestsPerSecond(double value) {
    return new Rate(value, Unit.REQUESTS);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1f %s", perSecond, unit.symbol());
  }
}
