package dev.llmbench.internal.report;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.result.ServiceLevels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The sweep's one verdict, which every report states first (the console, {@code table.txt} and so the job summary,
 * the sweep's page, the overview, Allure's sweep summary and {@code sweep.json}): failed when a level's test or an
 * {@code @AfterSweep} check failed, a level missed its SLO or a request failed; broken when a test threw something
 * other than a failed check; passed otherwise. A search's probes past the SLO are how it finds its answer, so they
 * count only through its tests; in a comparison of deployments, which deployment holds the SLO at a load is the
 * answer, so a miss counts only where every deployment missed.
 *
 * @param status    passed, failed or broken
 * @param reasons   why it is not passed, one line each, tests first; empty when passed
 * @param simulator the embedded engine's profile when it was the endpoint of any level: the figures are a
 *                  simulation's, and every page says so
 */
record SweepVerdict(Status status, List<String> reasons, Optional<String> simulator) {

  enum Status {
    PASSED, FAILED, BROKEN;

    /** As Allure and the pages write it: {@code passed}. */
    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  SweepVerdict {
    reasons = List.copyOf(reasons);
  }

  static SweepVerdict of(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.memo().get(List.of(SweepVerdict.class, levels.size(), sweep.failures().size()), () -> read(sweep, levels));
  }

  private static SweepVerdict read(SweepRun sweep, List<MeasuredLevel> levels) {
    List<String> reasons = new ArrayList<>();
    boolean broken = false;
    for (SweepRun.TestFailure f : sweep.failures()) {
      broken |= !f.isAssertion();
      // A level's failure often starts with its own label ("C=16: 2 SLO violation(s) ..."): said once.
      String line = firstLine(f.failure());
      if (line.startsWith(f.test() + ": ")) line = line.substring(f.test().length() + 2);
      reasons.add(f.test() + (f.isAssertion() ? " failed: " : " broke: ") + line);
    }
    if (!sweep.isSearch()) {
      Map<ServiceLevels, List<String>> missed = new LinkedHashMap<>();
      for (SweepLevelResult l : levels) {
        if (!l.serviceLevels().isEmpty() && !SloCheck.meets(l, l.serviceLevels()) && !heldBeside(sweep, l, levels)) {
          missed.computeIfAbsent(l.serviceLevels(), k -> new ArrayList<>()).add(l.label());
        }
      }
      missed.forEach((slo, labels) -> reasons.add("SLO " + slo + " missed at " + String.join(", ", labels)
          + (sweep.isComparison() ? " (by every deployment there)" : "")));
      for (SweepLevelResult l : levels) {
        if (l.failed() > 0) reasons.add(l.label() + ": " + l.failed() + " of " + l.requestCount() + " requests failed " + l.errorsByType());
      }
    }
    Status status = broken ? Status.BROKEN : reasons.isEmpty() ? Status.PASSED : Status.FAILED;
    Optional<String> simulator = levels.stream().map(l -> l.endpoint().embedded()).flatMap(Optional::stream).findFirst();
    return new SweepVerdict(status, reasons, simulator);
  }

  /**
   * Whether, in a comparison of deployments, another deployment held the SLO at {@code level}'s load (the same load and
   * lengths): then which one holds it is the comparison's answer, not a failure of the sweep.
   */
  private static boolean heldBeside(SweepRun sweep, SweepLevelResult level, List<MeasuredLevel> levels) {
    if (!sweep.isComparison()) return false;
    return levels.stream().filter(o -> o != level && o.load().equals(level.load()) && o.maxTokens() == level.maxTokens()
        && o.inputTokens() == level.inputTokens() && o.serviceLevels().equals(level.serviceLevels()))
        .anyMatch(o -> SloCheck.meets(o, o.serviceLevels()));
  }

  private static String firstLine(Throwable t) {
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline).strip() + " ...";
    return line.length() > 300 ? line.substring(0, 297) + "..." : line;
  }

  boolean passed() {
    return status == Status.PASSED;
  }

  /**
   * What the embedded engine is, said wherever it was the endpoint: {@code on the embedded simulator (profile
   * 'instant'), not a real server}; empty for a real server.
   */
  Optional<String> simulatorNote() {
    return simulator.map(p -> "measured on the embedded simulator (profile '" + p + "'), not a real server");
  }

  /**
   * The verdict in one line, as the console, {@code table.txt} and the job summary start: {@code verdict: FAILED:
   * C=32 failed: ...; SLO ... missed at C=32}, then the simulator's note. Never holds {@code " | "}, which marks a table
   * row.
   */
  String line() {
    StringBuilder s = new StringBuilder("verdict: ").append(status.name());
    if (!reasons.isEmpty()) s.append(": ").append(String.join("; ", reasons));
    simulatorNote().ifPresent(n -> s.append(" (").append(n).append(')'));
    return s.toString().replace(" | ", " / ");
  }
}
