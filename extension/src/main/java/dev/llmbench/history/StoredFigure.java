package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One figure of a level, with its unit: {@code 1234.5 tok/s}, {@code 87.0 ms}.
 *
 * @param value the value, finite
 * @param unit  its unit, as {@code Metric#unit()} names it
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record StoredFigure(double value, String unit) {

  /**
   * Checks the value is finite.
   *
   * @param value the value
   * @param unit  its unit
   */
  public StoredFigure {
    if (Double.isNaN(value) || Double.isInfinite(value)) throw new IllegalArgumentException("a figure is finite, was " + value);
    unit = unit == null ? "" : unit;
  }
}
