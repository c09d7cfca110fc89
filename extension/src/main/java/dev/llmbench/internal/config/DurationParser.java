package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/** Reads durations as people write them in annotations and properties: {@code 20m}, {@code 1.5s}, {@code 500ms}, {@code 100us}, {@code PT20M}. */
@API(status = INTERNAL)
public final class DurationParser {

  private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s|m|min|h)");

  private DurationParser() {}

  /** @throws IllegalArgumentException with the accepted forms when {@code text} is none of them */
  public static Duration parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    Matcher m = SIMPLE.matcher(t);
    if (m.matches()) {
      double v = Double.parseDouble(m.group(1));
      double nanos = switch (m.group(2)) {
        case "us", "µs" -> v * 1e3;
        case "ms" -> v * 1e6;
        case "s" -> v * 1e9;
        case "m", "min" -> v * 60e9;
        default -> v * 3600e9;
      };
      return Duration.ofNanos(Math.round(nanos));
    }
    try {
      return Duration.parse(text.strip().toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("'" + text + "' is not a duration; write e.g. 500ms, 30s, 20m, 1h or PT20M");
    }
  }

  /** A duration as a setting would be written, which {@link #parse} reads back: {@code 20m}, {@code 90s}, {@code 1.5s}, {@code 250ms}. */
  public static String written(Duration d) {
    long nanos = d.toNanos();
    if (nanos != 0 && nanos % 3_600_000_000_000L == 0) return nanos / 3_600_000_000_000L + "h";
    if (nanos != 0 && nanos % 60_000_000_000L == 0) return nanos / 60_000_000_000L + "m";
    if (nanos % 1_000_000_000L == 0) return nanos / 1_000_000_000L + "s";
    if (nanos >= 1_000_000_000L) return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
    if (nanos % 1_000_000L == 0) return nanos / 1_000_000L + "ms";
    return java.math.BigDecimal.valueOf(nanos, 3).stripTrailingZeros().toPlainString() + "us";
  }
}
