package dev.llmbench;

import java.util.Locale;

/**
 * A rate with its unit, per second.
 *
 * @param perSecond how many units each second
 * @param unit      what is counted
 */
public record Rate(double perSecond, Unit unit) implements Comparable<Rate> {

  /** What a rate counts. */
  public enum Unit {
    TOKENS("tok/s"),
    REQUESTS("req/s");

    private final String symbol;

    Unit(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }
  }

  public static Rate tokensPerSecond(double value) {
    return new Rate(value, Unit.TOKENS);
  }

  public static Rate requestsPerSecond(double value) {
    return new Rate(value, Unit.REQUESTS);
  }

  @Override
  public int compareTo(Rate other) {
    if (unit != other.unit) throw new IllegalArgumentException("cannot compare " + this + " with " + other);
    return Double.compare(perSecond, other.perSecond);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1f %s", perSecond, unit.symbol);
  }
}
