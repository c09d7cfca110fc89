package dev.llmbench.internal.report;

import dev.llmbench.result.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A finding as the console and {@code table.txt} show it: its summary, its likeliest causes and one thing to try. */
final class FindingText {

  static final int CAUSES_SHOWN = 2;

  private FindingText() {}

  static String compact(Finding f) {
    List<String> lines = new ArrayList<>();
    lines.add(f.summary());
    f.causes().stream().limit(CAUSES_SHOWN).forEach(c -> lines.add("  " + c.strength().name().toLowerCase(Locale.ROOT) + ": " + c));
    f.nextSteps().stream().limit(1).forEach(s -> lines.add("  try: " + s));
    return String.join("\n", lines);
  }
}
