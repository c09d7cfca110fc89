package dev.llmbench.testkit;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Exact messages that carry measured values: the message as users read it, with {@code {n}} where a
 * measured number stands, {@code {duration}} where a measured duration does ({@code 85.1 ms}, {@code 1.204 s},
 * {@code 850 µs}: its unit follows its size) and {@code {*}} where any text may (a temporary path), as a
 * regular expression for AssertJ's {@code hasMessageMatching}.
 *
 * <pre>{@code
 * .hasMessageMatching(Messages.pattern("C=2: TTFT p50 is {duration}, above the required 1.0 ms"))
 * }</pre>
 */
public final class Messages {

  /** A number as the reports print one: an optional sign, digits, decimals, and an exponent. */
  private static final String NUMBER = "-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?";

  private static final Map<String, String> PLACES = Map.of("{n}", NUMBER, "{duration}", NUMBER + " (?:s|ms|µs)", "{*}", ".*?");

  private static final Pattern PLACE = Pattern.compile("\\{n}|\\{duration}|\\{\\*}");

  private Messages() {}

  /** The regular expression matching {@code template} whole, every other character taken literally. */
  public static String pattern(String template) {
    StringBuilder regex = new StringBuilder("(?s)");
    Matcher m = PLACE.matcher(template);
    int from = 0;
    while (m.find()) {
      regex.append(Pattern.quote(template.substring(from, m.start()))).append(PLACES.get(m.group()));
      from = m.end();
    }
    return regex.append(Pattern.quote(template.substring(from))).toString();
  }
}
