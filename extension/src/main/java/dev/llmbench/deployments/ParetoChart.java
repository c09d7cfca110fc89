package dev.llmbench.deployments;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.SweepGroups;
import dev.llmbench.internal.chart.XyCharts;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Deployments compared on latency against throughput, one line per deployment and the frontier of the
 * levels no other level beats on both (at the SLO's percentile, else the median).
 */
final class ParetoChart {

  private ParetoChart() {}

  static String of(String title, List<? extends SweepLevelResult> levels) {
    boolean open = levels.get(0).load() instanceof LoadShape.OpenLoop;
    // One curve per workload and deployment, as the sweep's other charts draw them.
    Map<String, List<SweepLevelResult>> groups = SweepGroups.curves(levels);
    double p = DeploymentComparison.frontierPercentile(levels);
    XYSeriesCollection data = new XYSeriesCollection();
    List<List<SweepLevelResult>> pointsOf = new ArrayList<>();
    groups.forEach((group, members) -> {
      List<SweepLevelResult> withLatency = members.stream().filter(l -> l.e2eLatency().percentile(p).isPresent()).toList();
      XYSeries s = new XYSeries(group, false);
      withLatency.forEach(l -> s.add(l.outputThroughput().perSecond(), seconds(l.e2eLatency(), p)));
      data.addSeries(s);
      pointsOf.add(withLatency);
    });
    XYSeries frontier = new XYSeries("Pareto frontier", false);
    DeploymentComparison.frontier(levels, p).forEach(l -> frontier.add(l.outputThroughput().perSecond(), seconds(l.e2eLatency(), p)));
    data.addSeries(frontier);
    NumberAxis x = new NumberAxis(XyCharts.capitalised(Metric.OUTPUT_THROUGHPUT.heading()));
    NumberAxis y = new NumberAxis(Metric.E2E_LATENCY.label() + " " + Formats.percentile(p) + " (s)");
    y.setAutoRangeIncludesZero(true);
    int frontierIndex = data.getSeriesCount() - 1;
    XYLineAndShapeRenderer renderer = XyCharts.renderer(data.getSeriesCount());
    // A wide pale band under the lines (the last series is drawn first), so the frontier shows even where
    // it runs along one deployment's line.
    renderer.setSeriesPaint(frontierIndex, new Color(0, 0, 0, 40));
    renderer.setSeriesStroke(frontierIndex, new BasicStroke(10f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
    renderer.setSeriesShapesVisible(frontierIndex, false);
    renderer.setDefaultItemLabelGenerator((dataset, series, item) -> {
      if (series == frontierIndex) return null;
      SweepLevelResult l = pointsOf.get(series).get(item);
      return open ? Formats.rate(SweepGroups.rate(l)) + "/s" : "C=" + l.concurrency();
    });
    return XyCharts.draw(title + ": deployments, latency vs throughput", new XYPlot(data, x, y, renderer), true);
  }

  private static double seconds(Distribution d, double p) {
    return d.percentile(p).map(v -> v.toNanos() / 1e9).orElse(Double.NaN);
  }
}
