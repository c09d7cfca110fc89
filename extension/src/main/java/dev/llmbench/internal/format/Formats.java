package dev.llmbench.internal.format;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Locale;
import org.apiguardian.api.API;

/** How durations and numbers are written for people: in reports, tables and failure messages. */
@API(status = INTERNAL)
public final class Formats {

  private Formats() {}

  /** {@code 8.360 s}, {@code 20.1 ms}, {@code 850 µs}. */
  public static String duration(Duration d) {
    if (d == null) return "-";
    double nanos = d.toNanos();
    if (Math.abs(nanos) >= 1e9) return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    if (Math.abs(nanos) >= 1e6) return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
  }

  /** {@code 99}, {@code 99.9}: no trailing zeros. */
  public static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
    return String.format(Locale.ROOT, "%s", v);
  }

  /**
   * A rate as people read it: four significant digits at most, no trailing zeros ({@code 4}, {@code 0.5},
   * {@code 196.9}), where a trace's mean rate at a scale would print {@code 196.92792437967702}.
   */
  public static String rate(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) return Double.toString(v);
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
    return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
  }

  /** Seconds with two decimals, as the field's tables show latency: {@code 8.36}. */
  public static String seconds(Duration d) {
    return d == null ? "-" : String.format(Locale.ROOT, "%.2f", d.toNanos() / 1e9);
  }

  /** {@code 99} becomes "p99", {@code 99.9} becomes "p99.9". */
  public static String percentile(double p) {
    return "p" + number(p);
  }

  /** A fraction as people read it: {@code 0.125} becomes "12.5%". */
  public static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
  }
}
