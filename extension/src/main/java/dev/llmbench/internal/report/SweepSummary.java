package dev.llmbench.internal.report;

import dev.llmbench.internal.analysis.ScalingAnalysis;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import java.util.List;
import java.util.Map;

/**
 * What every report shows of a finished sweep, rendered once: the table, the analysis and the charts.
 *
 * @param charts chart name (file name without extension) to SVG document
 */
record SweepSummary(String title, List<MeasuredLevel> levels, String table, List<String> findings, Map<String, String> charts) {

  static SweepSummary of(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.memo().get(SweepSummary.class, () -> new SweepSummary(sweep.title(), levels, ConsoleTable.render(levels),
        ScalingAnalysis.findings(levels), SvgCharts.forSweep(sweep.title(), levels)));
  }

  /** The table with the analysis under it, as the console and {@code table.txt} show them. */
  String tableWithFindings() {
    return table + String.join("\n", findings) + "\n";
  }
}
