package dev.llmbench.internal.report;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.result.ServiceLevels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reader of a sweep's page wants first: the answer, whether the SLO held at each load, and what
 * failed. Built from what the sweep already computed; nothing here is measured again.
 *
 * @param answer   the comparison's, baseline's and capacity search's conclusions, else the headline readings
 * @param slo      per SLO, the loads that met it and each load that missed it with why
 * @param failures each level whose requests failed, with the kinds
 */
record SweepAnswer(List<String> answer, List<String> slo, List<String> failures) {

  /** The finding kinds that read the sweep as a whole: the answer when nothing concludes. */
  private static final List<FindingKind> HEADLINE = List.of(FindingKind.CAPACITY, FindingKind.SCALING, FindingKind.THROUGHPUT_DROP);

  static SweepAnswer of(SweepSummary summary) {
    List<String> answer = new ArrayList<>(summary.conclusions());
    if (answer.isEmpty()) {
      summary.findings().stream().filter(f -> HEADLINE.contains(f.kind()))
          .sorted(Comparator.comparingInt(f -> HEADLINE.indexOf(f.kind()))).map(Finding::summary).forEach(answer::add);
    }
    if (answer.isEmpty()) {
      int n = summary.levels().size();
      answer.add(n + (n == 1 ? " level" : " levels") + " measured; the table and the charts below hold its figures"
          + (n == 1 ? " (a reading of the scaling needs two loads or more)" : ""));
    }
    return new SweepAnswer(List.copyOf(answer), slo(summary.levels()), failures(summary.levels()));
  }

  private static List<String> slo(List<? extends SweepLevelResult> levels) {
    Map<ServiceLevels, List<SweepLevelResult>> bySlo = new LinkedHashMap<>();
    levels.stream().filter(l -> !l.serviceLevels().isEmpty())
        .forEach(l -> bySlo.computeIfAbsent(l.serviceLevels(), k -> new ArrayList<>()).add(l));
    List<String> lines = new ArrayList<>();
    bySlo.forEach((slo, members) -> {
      List<String> met = new ArrayList<>();
      List<String> missed = new ArrayList<>();
      for (SweepLevelResult l : members) {
        List<String> violations = SloCheck.violations(l, slo);
        if (violations.isEmpty()) met.add(l.label());
        else missed.add(l.label() + " (" + String.join("; ", violations) + ")");
      }
      StringBuilder line = new StringBuilder("SLO ").append(slo).append(": ");
      if (missed.isEmpty()) line.append("met at every level (").append(String.join(", ", met)).append(')');
      else if (met.isEmpty()) line.append("missed at every level: ").append(String.join(", ", missed));
      else line.append("met at ").append(String.join(", ", met)).append("; missed at ").append(String.join(", ", missed));
      lines.add(line.toString());
    });
    return List.copyOf(lines);
  }

  private static List<String> failures(List<? extends SweepLevelResult> levels) {
    List<String> lines = new ArrayList<>();
    for (SweepLevelResult l : levels) {
      if (l.failed() == 0) continue;
      lines.add(l.label() + ": " + l.failed() + " of " + l.requestCount() + " requests failed " + l.errorsByType());
    }
    return List.copyOf(lines);
  }

  /**
   * How much a finding weighs on the page: 0 first. What says the figures may be wrong or requests fail
   * comes first, then what reads the server, then caveats about single levels; ramp-and-drain, cold-start and
   * stable-level notes are about the measurement, rarely the answer, and are folded.
   */
  static int weight(FindingKind kind) {
    return switch (kind) {
      case ERROR_GROWTH, CLIENT_BOUND -> 0;
      case UNSTABLE, LATENCY_FALLS_WITH_LOAD, DIP -> 2;
      case COLD_START, RAMP_AND_DRAIN, STABLE -> 3;
      default -> 1;
    };
  }

  static boolean minor(Finding f) {
    return weight(f.kind()) >= 3;
  }

  /** The findings heaviest first; the analysis's order within one weight. */
  static List<Finding> ranked(List<Finding> findings) {
    return findings.stream().sorted(Comparator.comparingInt(f -> weight(f.kind()))).toList();
  }
}
