package dev.llmbench.internal.report;

import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.AnalysedSweep;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.result.Finding;
import dev.llmbench.server.DeploymentDescription;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What every report shows of a finished sweep, rendered once: the table, the findings and the charts.
 *
 * @param deployment  what the suite said about its deployment
 * @param findings    what the analysis read in the levels
 * @param table       the console's table, each feature's lines under it
 * @param conclusions what compares deployments, and the baseline's and the capacity search's verdicts: the
 *                    sweep's features' findings
 * @param charts      chart name (file name without extension) to SVG document, the features' after the sweep's own
 * @param sections    what the sweep's features say of it, in their order
 * @param verdict     passed, failed or broken, and why: what every report states first
 * @param started     when the sweep started (its first level's wait for the endpoint)
 * @param ended       when it ended, after its last level and its {@code @AfterSweep} checks
 */
record SweepSummary(String title, List<MeasuredLevel> levels, Optional<DeploymentDescription> deployment, String table,
    List<Finding> findings, List<String> conclusions, Map<String, String> charts, List<FeatureSection> sections,
    SweepVerdict verdict, Instant started, Instant ended) {

  static SweepSummary of(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.memo().get(SweepSummary.class, () -> {
      Optional<DeploymentDescription> deployment = levels.get(0).deploymentDescription();
      List<FeatureSection> sections = sweep.sections(levels);
      Map<String, String> charts = new LinkedHashMap<>(SvgCharts.forSweep(levels));
      sections.forEach(s -> charts.putAll(s.charts()));
      return new SweepSummary(sweep.title(), levels, deployment, ConsoleTable.render(levels)
          + featureLines(sweep, levels, sections), AnalysedSweep.of(sweep).findings(), conclusions(sweep, levels, sections),
          Collections.unmodifiableMap(charts), sections, SweepVerdict.of(sweep, levels), sweep.started(), sweep.ended());
    });
  }

  /** Each level's feature lines in level order, then the sweep's. */
  static String featureLines(SweepRun sweep, List<MeasuredLevel> levels, List<FeatureSection> sections) {
    StringBuilder out = new StringBuilder();
    for (MeasuredLevel l : levels) sweep.sections(l).forEach(s -> s.console().forEach(line -> out.append(line).append('\n')));
    sections.forEach(s -> s.console().forEach(line -> out.append(line).append('\n')));
    return out.toString();
  }

  /**
   * The features' findings by their place in the answer (the choice, its cost in quality, its cost in start time, the
   * rest), each place in the order of the features: what compares the deployments, then the baseline's and the capacity
   * search's conclusions, then the others'.
   */
  static List<String> conclusions(SweepRun sweep, List<MeasuredLevel> levels, List<FeatureSection> sections) {
    List<String> all = new ArrayList<>();
    for (FeatureSection.AnswerPlace place : FeatureSection.AnswerPlace.values()) {
      for (FeatureSection s : sections) {
        for (int i = 0; i < s.findings().size(); i++) if (s.places().get(i) == place) all.add(s.findings().get(i));
      }
    }
    return all;
  }

  /** The sweep's own JSON document ({@code sweep.json}): levels, deployment and findings. */
  String json() {
    return ResultJson.sweep(this);
  }

  /**
   * The verdict, the deployment, the table and the findings under it, as the console and {@code table.txt} (and so the
   * job summary) show them.
   */
  String tableWithFindings() {
    StringBuilder out = new StringBuilder(verdict.line()).append('\n');
    deployment.ifPresent(d -> out.append("deployment: ").append(d.describe()).append('\n'));
    out.append(table);
    findings.forEach(f -> out.append(FindingText.compact(f, findings)).append('\n'));
    conclusions.forEach(c -> out.append(c).append('\n'));
    return out.toString();
  }
}
