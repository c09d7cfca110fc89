package dev.llmbench.internal.report;

import dev.llmbench.internal.analysis.ScalingAnalysis;
import dev.llmbench.internal.baseline.Baselines;
import dev.llmbench.internal.capacity.CapacityResults;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.compare.DeploymentComparison;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What every report shows of a finished sweep, rendered once: the table, the analysis and the charts.
 *
 * @param charts chart name (file name without extension) to SVG document
 */
record SweepSummary(String title, List<MeasuredLevel> levels, String table, List<String> findings, Map<String, String> charts) {

  static SweepSummary of(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.memo().get(SweepSummary.class, () -> new SweepSummary(sweep.title(), levels,
        ConsoleTable.render(levels) + ConsoleTable.baselineLines(levels), findings(sweep, levels),
        SvgCharts.forSweep(sweep.title(), levels)));
  }

  /**
   * The scaling analysis of each deployment (prefixed with its name when there are several), then what
   * compares them, then the baseline's and the capacity search's conclusions.
   */
  static List<String> findings(SweepRun sweep, List<MeasuredLevel> levels) {
    List<String> all = new ArrayList<>();
    Map<String, List<MeasuredLevel>> byDeployment = ByDeployment.of(levels);
    byDeployment.forEach((deployment, members) -> ScalingAnalysis.findings(members)
        .forEach(f -> all.add(byDeployment.size() > 1 ? "[" + deployment + "] " + f : f)));
    all.addAll(DeploymentComparison.findings(levels));
    Baselines.statement(sweep, levels).ifPresent(all::add);
    sweep.attribute(CapacityResults.class).ifPresent(r -> r.all().forEach(c -> all.add(c.statement())));
    return all;
  }

  /** The table with the analysis under it, as the console and {@code table.txt} show them. */
  String tableWithFindings() {
    return table + String.join("\n", findings) + "\n";
  }
}
