package dev.llmbench.deployments;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.SweepGroups;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.internal.core.FeatureSection.AnswerPlace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.ServiceLevels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * What a sweep over several deployments says in plain words: which deployment gives the most goodput under
 * the suite's SLO and at which load, and which levels are on the latency-throughput frontier.
 */
final class DeploymentComparison {

  private DeploymentComparison() {}

  /** One statement per workload, then the time to ready, then the frontier; empty unless the levels come from several deployments. */
  public static List<String> findings(List<? extends SweepLevelResult> levels) {
    return placed(levels).stream().map(Map.Entry::getKey).toList();
  }

  /**
   * {@link #findings} with where each stands in the sweep's answer: the statement is the choice, the time to ready what
   * it costs to start, so that another feature's cost in quality (drift, accuracy) reads between them.
   */
  static List<Map.Entry<String, AnswerPlace>> placed(List<? extends SweepLevelResult> levels) {
    if (!ByDeployment.several(levels)) return List.of();
    List<Map.Entry<String, AnswerPlace>> findings = new ArrayList<>();
    Map<String, List<SweepLevelResult>> workloads = SweepGroups.of(levels);
    workloads.forEach((workload, members) -> findings.add(Map.entry((workload.isEmpty() ? "" : "[" + workload + "] ")
        + best(members), AnswerPlace.CHOICE)));
    startup(levels).ifPresent(s -> findings.add(Map.entry(s, AnswerPlace.STARTUP)));
    findings.add(Map.entry(frontierFinding(levels), AnswerPlace.DETAIL));
    return findings;
  }

  /** Which deployment gives the most goodput among its levels that meet the SLO; without one, the most output throughput. */
  static String best(List<SweepLevelResult> levels) {
    ServiceLevels slo = levels.get(0).serviceLevels();
    Map<String, Optional<SweepLevelResult>> bestOf = new LinkedHashMap<>();
    if (slo.isEmpty()) {
      ByDeployment.of(levels).forEach((d, ls) -> bestOf.put(d, ls.stream().filter(l -> l.succeeded() > 0)
          .max(Comparator.comparingDouble(l -> l.outputThroughput().perSecond()))));
      List<String> ranked = ranked(bestOf, l -> l.outputThroughput().perSecond());
      return "no @Slo to judge goodput by; by output throughput, " + ranked.get(0).replaceFirst(": ", " is highest: ")
          + (ranked.size() > 1 ? "; " + String.join("; ", ranked.subList(1, ranked.size())) : "");
    }
    ByDeployment.of(levels).forEach((d, ls) -> bestOf.put(d, ls.stream().filter(l -> SloCheck.meets(l, slo))
        .max(Comparator.comparingDouble(l -> l.goodput().perSecond()))));
    List<String> none = bestOf.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(Map.Entry::getKey).toList();
    String under = "under the SLO (" + slo + ")";
    if (none.size() == bestOf.size()) return under + " no deployment meets it at any level";
    List<String> ranked = ranked(bestOf, l -> l.goodput().perSecond());
    String statement = under + ", " + ranked.get(0).replaceFirst(": ", " gives the most goodput: ");
    if (ranked.size() > 1) statement += "; " + String.join("; ", ranked.subList(1, ranked.size()));
    if (!none.isEmpty()) statement += "; " + String.join(", ", none) + (none.size() == 1 ? " meets" : " meet") + " it at no level";
    return statement;
  }

  /** {@code gqa: 24.1 req/s (771 tok/s) at C=32}, best first, with each later one's share of the best. */
  private static List<String> ranked(Map<String, Optional<SweepLevelResult>> bestOf,
      ToDoubleFunction<SweepLevelResult> by) {
    List<Map.Entry<String, SweepLevelResult>> found = bestOf.entrySet().stream().filter(e -> e.getValue().isPresent())
        .map(e -> Map.entry(e.getKey(), e.getValue().get()))
        .sorted(Comparator.comparingDouble((Map.Entry<String, SweepLevelResult> e) -> by.applyAsDouble(e.getValue())).reversed())
        .toList();
    double top = by.applyAsDouble(found.get(0).getValue());
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, SweepLevelResult> e : found) {
      SweepLevelResult l = e.getValue();
      String line = String.format(Locale.ROOT, "%s: %.1f req/s (%.0f tok/s) at %s", e.getKey(), l.goodput().perSecond(),
          l.outputThroughput().perSecond(), ByDeployment.load(l));
      if (l.serviceLevels().isEmpty()) {
        line = String.format(Locale.ROOT, "%s: %.0f tok/s at %s", e.getKey(), l.outputThroughput().perSecond(), ByDeployment.load(l));
      }
      // Beside the goodput, what its tokens cost on that deployment, when it has a price.
      line += l.tokenCost().filter(c -> !Double.isNaN(c.dollarsPerMillionOutputTokens()))
          .map(c -> String.format(Locale.ROOT, ", $%.3f per 1M output tokens", c.dollarsPerMillionOutputTokens())).orElse("");
      double v = by.applyAsDouble(l);
      if (!lines.isEmpty() && top > 0) line += String.format(Locale.ROOT, " (%.0f%% of %s)", 100 * v / top, found.get(0).getKey());
      lines.add(line);
    }
    return lines;
  }

  /**
   * What each launched candidate cost to start, beside its speed: from its launch to ready (the client's wait when the
   * suite did not launch it), and the phases its log showed, e.g. {@code time to ready: f16 1.20 s (llama.cpp: starting
   * 0.30 s → loading model 0.60 s → listening); q4_0 0.90 s (...)}. Empty when no deployment was launched by the suite:
   * a server already running costs nothing to start here.
   */
  static Optional<String> startup(List<? extends SweepLevelResult> levels) {
    Map<String, List<SweepLevelResult>> byDeployment = ByDeployment.of(List.copyOf(levels));
    if (byDeployment.values().stream().noneMatch(ls -> ls.get(0).endpoint().startup().readySinceLaunch().isPresent())) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    byDeployment.forEach((d, ls) -> {
      var endpoint = ls.get(0).endpoint();
      Duration ready = endpoint.startup().readySinceLaunch().orElse(endpoint.timeToReady());
      String summary = endpoint.startup().summary();
      parts.add(d + " " + Formats.seconds(ready) + " s" + (summary.isEmpty() ? "" : " (" + summary + ")"));
    });
    return Optional.of("time to ready (launch to ready, each restart and autoscale pays it): " + String.join("; ", parts));
  }

  /** The percentile the frontier judges latency at: the SLO's, else the median. */
  public static double frontierPercentile(List<? extends SweepLevelResult> levels) {
    ServiceLevels slo = levels.get(0).serviceLevels();
    return slo.isEmpty() ? 50 : Math.min(slo.percentile(), 99.9);
  }

  /**
   * The levels no other level beats on both counts (at least the output throughput with at most the E2E
   * latency at {@code percentile}, one strictly), by rising throughput.
   */
  public static List<SweepLevelResult> frontier(List<? extends SweepLevelResult> levels, double percentile) {
    List<SweepLevelResult> measured = levels.stream().filter(l -> l.e2eLatency().percentile(percentile).isPresent())
        .map(SweepLevelResult.class::cast).toList();
    List<SweepLevelResult> frontier = new ArrayList<>();
    for (SweepLevelResult a : measured) {
      boolean dominated = measured.stream().anyMatch(b -> b != a && dominates(b, a, percentile));
      if (!dominated) frontier.add(a);
    }
    frontier.sort(Comparator.comparingDouble(l -> l.outputThroughput().perSecond()));
    return frontier;
  }

  private static boolean dominates(SweepLevelResult b, SweepLevelResult a, double p) {
    double tb = b.outputThroughput().perSecond();
    double ta = a.outputThroughput().perSecond();
    Duration lb = b.e2eLatency().percentile(p).orElseThrow();
    Duration la = a.e2eLatency().percentile(p).orElseThrow();
    return tb >= ta && lb.compareTo(la) <= 0 && (tb > ta || lb.compareTo(la) < 0);
  }

  private static String frontierFinding(List<? extends SweepLevelResult> levels) {
    double p = frontierPercentile(levels);
    List<SweepLevelResult> frontier = frontier(levels, p);
    Map<String, String> on = new LinkedHashMap<>();
    ByDeployment.of(levels).keySet().forEach(d -> on.put(d, frontier.stream().filter(l -> ByDeployment.name(l).equals(d))
        .map(ByDeployment::load).collect(Collectors.joining(", "))));
    List<String> parts = new ArrayList<>();
    on.forEach((d, loads) -> parts.add(loads.isEmpty() ? d + " has no level on it" : d + " at " + loads));
    return "latency-throughput frontier (E2E latency " + Formats.percentile(p) + " against " + Metric.OUTPUT_THROUGHPUT.label()
        + ", no level both faster and higher): " + String.join("; ", parts);
  }
}
