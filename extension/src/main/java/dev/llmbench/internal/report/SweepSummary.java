package dev.llmbench.internal.report;

import dev.llmbench.DeploymentDescription;
import dev.llmbench.Finding;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepReading;
import dev.llmbench.internal.core.SweepRun;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What every report shows of a finished sweep, rendered once: the table, the findings and the charts.
 *
 * @param deployment what the suite said about its deployment
 * @param charts     chart name (file name without extension) to SVG document
 */
record SweepSummary(String title, List<MeasuredLevel> levels, Optional<DeploymentDescription> deployment, String table,
    List<Finding> findings, Map<String, String> charts) {

  static SweepSummary of(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.memo().get(SweepSummary.class, () -> {
      Optional<DeploymentDescription> deployment = levels.get(0).deploymentDescription();
      return new SweepSummary(sweep.title(), levels, deployment, ConsoleTable.render(levels),
          SweepReading.of(sweep).findings(), SvgCharts.forSweep(sweep.title(), levels));
    });
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
    return out.toString();
  }
}
