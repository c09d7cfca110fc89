package dev.llmbench.testkit;

import java.util.regex.Pattern;

/**
 * Exact messages that carry measured numbers: the message as users read it, with {@code {n}} where a
 * measured number stands and {@code {*}} where any text may (a temporary path), as a regular expression
 * for AssertJ's {@code hasMessageMatching}.
 *
 * <pre>{@code
 * .hasMessageMatching(Messages.pattern("C=2: output throughput (tok/s) {n} is not above 1000000.0"))
 * }</pre>
 */
public final class Messages {

  /** A number as the reports print one: an optional sign, digits, decimals, and an exponent. */
  private static final String NUMBER = "-?[0-9][0-9,]*(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?";

  private Messages() {}

  /** The regular expression matching {@code template} whole, every other character taken literally. */
  public static String pattern(String template) {
    StringBuilder regex = new StringBuilder("(?s)");
    int from = 0;
    while (true) {
      int n = template.indexOf("{n}", from);
      int any = template.indexOf("{*}", from);
      int next = n < 0 ? any : any < 0 ? n : Math.min(n, any);
      if (next < 0) break;
      regex.append(Pattern.quote(template.substring(from, next))).append(next == n ? NUMBER : ".*?");
      from = next + 3;
    }
    return regex.append(Pattern.quote(template.substring(from))).toString();
  }
}
