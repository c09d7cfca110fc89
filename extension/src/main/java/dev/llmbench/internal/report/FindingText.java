package dev.llmbench.internal.report;

import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A finding as the console and {@code table.txt} show it: its summary, its likeliest causes and one thing to try. */
final class FindingText {

  static final int CAUSES_SHOWN = 2;

  private FindingText() {}

  /** The pointer a knee or dip gets to the headline's causes, which the analysis says once ({@link #sharesCauses}). */
  static final String SAME_CAUSES = "causes: those of the scaling finding";

  static String compact(Finding f) {
    return compact(f, List.of());
  }

  /** The finding among {@code all} of its sweep: a knee or dip whose causes are the headline's points to them. */
  static String compact(Finding f, List<Finding> all) {
    List<String> lines = new ArrayList<>();
    lines.add(f.summary());
    if (sharesCauses(f, all)) lines.add("  " + SAME_CAUSES);
    f.causes().stream().limit(CAUSES_SHOWN).forEach(c -> lines.add("  " + c.strength().name().toLowerCase(Locale.ROOT) + ": " + c));
    f.nextSteps().stream().limit(1).forEach(s -> lines.add("  try: " + s));
    return String.join("\n", lines);
  }

  /**
   * Whether {@code f} is a knee or dip left without causes because the sweep's scaling finding (the headline) lists
   * them: they are said once, there.
   */
  static boolean sharesCauses(Finding f, List<Finding> all) {
    return (f.kind() == FindingKind.KNEE || f.kind() == FindingKind.DIP) && f.causes().isEmpty()
        && all.stream().anyMatch(h -> h.kind() == FindingKind.SCALING && !h.causes().isEmpty()
            && h.summary().startsWith(groupPrefix(f)));
  }

  /** {@code [gqa] } of a deployment's or workload's finding, empty for a sweep of one curve. */
  private static String groupPrefix(Finding f) {
    return f.summary().startsWith("[") && f.summary().contains("] ") ? f.summary().substring(0, f.summary().indexOf("] ") + 2) : "";
  }
}
