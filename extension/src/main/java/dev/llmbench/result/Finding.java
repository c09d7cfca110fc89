package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One thing the analysis read in a sweep, as data: what kind, at which levels, the numbers it rests on,
 * the causes consistent with them (most likely first, each with its reason), the causes the numbers rule
 * out, and what to try next. Thresholds come from each level's own noise (its 95% interval); docs/findings.md
 * explains every kind.
 *
 * @param kind      what it is about
 * @param levels    the labels of the levels it concerns, lowest load first
 * @param summary   one line, e.g. {@code throughput fell from 100.0 tok/s at C=1 to 80.0 tok/s at C=2 ...}
 * @param evidence  the numbers it rests on, with their units
 * @param causes    causes the numbers point to ({@link Strength#LIKELY}), then those they allow, most likely first
 * @param ruledOut  causes the numbers contradict, each with why
 * @param nextSteps what to try next
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Finding(FindingKind kind, List<String> levels, String summary, List<Evidence> evidence, List<Cause> causes,
    List<Cause> ruledOut, List<String> nextSteps) {

  /**
   * Rejects a missing kind or summary, and copies the lists, so the finding cannot change.
   *
   * @param kind      what it is about
   * @param levels    the labels of the levels it concerns, lowest load first
   * @param summary   one line, e.g. {@code throughput fell from 100.0 tok/s at C=1 to 80.0 tok/s at C=2 ...}
   * @param evidence  the numbers it rests on, with their units
   * @param causes    causes the numbers point to ({@link Strength#LIKELY}), then those they allow, most likely first
   * @param ruledOut  causes the numbers contradict, each with why
   * @param nextSteps what to try next
   */
  public Finding {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(summary, "summary");
    levels = List.copyOf(levels);
    evidence = List.copyOf(evidence);
    causes = List.copyOf(causes);
    ruledOut = List.copyOf(ruledOut);
    nextSteps = List.copyOf(nextSteps);
  }

  /**
   * One number a finding rests on.
   *
   * @param name  what it is, e.g. {@code output throughput at C=2}
   * @param value the number
   * @param unit  {@code tok/s}, {@code ms}, {@code fraction}, {@code requests}, ...
   */
  public record Evidence(String name, double value, String unit) {
    @Override
    public String toString() {
      String v = "fraction".equals(unit) ? String.format(Locale.ROOT, "%.1f%%", value * 100)
          : value == Math.rint(value) && Math.abs(value) < 1e12 ? Long.toString((long) value)
          : String.format(Locale.ROOT, "%.4g", value);
      return name + " = " + v + ("fraction".equals(unit) || unit.isEmpty() ? "" : " " + unit);
    }
  }

  /**
   * A cause, and why the numbers point to it, allow it or rule it out.
   *
   * @param cause    what may have happened, e.g. {@code no warm-up}
   * @param reason   the numbers that say so
   * @param strength whether the numbers point to it, merely allow it, or rule it out
   */
  public record Cause(String cause, String reason, Strength strength) {
    @Override
    public String toString() {
      return cause + ": " + reason;
    }
  }

  /** How far the numbers bear a cause out. */
  public enum Strength {
    /** The numbers point to it. */
    LIKELY,
    /** The numbers allow it but do not show it. */
    POSSIBLE,
    /** The numbers contradict it. */
    RULED_OUT
  }

  /** {@return the summary, then the evidence, the likely causes, what was ruled out and what to try, one per line} */
  public String text() {
    List<String> lines = new ArrayList<>();
    lines.add(summary);
    if (!evidence.isEmpty()) lines.add("  evidence: " + String.join("; ", evidence.stream().map(Evidence::toString).toList()));
    for (int i = 0; i < causes.size(); i++) {
      lines.add("  cause " + (i + 1) + " (" + causes.get(i).strength().name().toLowerCase(Locale.ROOT) + "): " + causes.get(i));
    }
    ruledOut.forEach(c -> lines.add("  ruled out: " + c));
    nextSteps.forEach(s -> lines.add("  try: " + s));
    return String.join("\n", lines);
  }

  @Override
  public String toString() {
    return kind + " " + levels + ": " + summary;
  }
}
