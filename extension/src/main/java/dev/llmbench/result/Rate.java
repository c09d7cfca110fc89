package dev.llmbench.result;

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
    REQUESTS,
    /** Inputs: the texts an embeddings request carries, one a request for generation. */
    INPUTS;

    /** {@return {@code tok/s}, {@code req/s} or {@code inputs/s}} */
    public String symbol() {
      return switch (this) {
        case TOKENS -> "tok/s";
        case REQUESTS -> "req/s";
        case INPUTS -> "inputs/s";
      };
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

  /**
   * {@return so many inputs per second}
   *
   * @param value inputs (embedded texts) per second
   */
  public static Rate inputsPerSecond(double value) {
    return new Rate(value, Unit.INPUTS);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1f %s", perSecond, unit.symbol());
  }
}
