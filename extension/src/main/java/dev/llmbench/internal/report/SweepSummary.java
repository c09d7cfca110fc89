package dev.llmbench.internal.report;

import dev.llmbench.DeploymentDescription;
import dev.llmbench.Finding;
import dev.llmbench.internal.baseline.Baselines;
import dev.llmbench.internal.capacity.CapacityResults;
import dev.llmbench.internal.compare.DeploymentComparison;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepReading;
import dev.llmbench.internal.core.SweepRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What every report shows of a finished sweep, rendered once: the table, the findings and the charts.
 *
 * @param deployment  what the suite said about its deployment
 * @param findings    what the analysis read in the levels
 * @param conclusions what compares deployments, and the baseline's and the capacity search's verdicts
 * @param charts      chart name (file name without extension) to SVG document
 */
record SweepSummary(String title, List<MeasuredLevel> levels, Optional<DeploymentDescription> deployment, String table,
    List<Finding> findings, List<String> conclusions, Map<String, String> charts) {

  static SweepSummary of(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.memo().get(SweepSummary.class, () -> {
      Optional<DeploymentDescription> deployment = levels.get(0).deploymentDescription();
      return new SweepSummary(sweep.title(), levels, deployment, ConsoleTable.render(levels) + ConsoleTable.baselineLines(levels),
          SweepReading.of(sweep).findings(), conclusions(sweep, levels), SvgCharts.forSweep(sweep.title(), levels));
    });
  }

  /** What compares the deployments, then the baseline's and the capacity search's conclusions. */
  static List<String> conclusions(SweepRun sweep, List<MeasuredLevel> levels) {
    List<String> all = new ArrayList<>(DeploymentComparison.findings(levels));
    Baselines.statement(sweep, levels).ifPresent(all::add);
    sweep.attribute(CapacityResults.class).ifPresent(r -> r.all().forEach(c -> all.add(c.statement())));
    return all;
  }

  /** The sweep's own JSON document ({@code sweep.json}): levels, deployment and findings. */
  String json() {
    return ResultJson.sweep(this);
  }

  /** The deployment, the table and the findings under it, as the console and {@code table.txt} show them. */
  String tableWithFindings() {
    StringBuilder out = new StringBuilder();
    deployment.ifPresent(d -> out.append("deployment: ").append(d.describe()).append('\n'));
    out.append(table);
    findings.forEach(f -> out.append(FindingText.compact(f)).append('\n'));
    conclusions.forEach(c -> out.append(c).append('\n'));
    return out.toString();
  }
}
