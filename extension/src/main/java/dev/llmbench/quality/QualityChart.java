package dev.llmbench.quality;

import dev.llmbench.Metric;
import dev.llmbench.internal.chart.XyCharts;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * Accuracy against output throughput: a point per level with its Wilson interval as an error bar, a colour per
 * deployment, each point named by its load, and the frontier (no level both more accurate and faster) dashed.
 * Up and to the right is better, so the decision reads off the frontier.
 */
final class QualityChart {

  /** One level on the chart. */
  record Point(String deployment, String load, double throughput, double accuracy, double lower, double upper) {}

  private QualityChart() {}

  /** @param frontier the points on the frontier, by rising throughput */
  static String of(String title, List<Point> points, List<Point> frontier) {
    Map<String, List<Point>> byDeployment = new LinkedHashMap<>();
    points.forEach(p -> byDeployment.computeIfAbsent(p.deployment(), k -> new ArrayList<>()).add(p));
    YIntervalSeriesCollection data = new YIntervalSeriesCollection();
    List<List<Point>> pointsOf = new ArrayList<>();
    byDeployment.forEach((d, ps) -> {
      YIntervalSeries s = new YIntervalSeries(d.isEmpty() ? "accuracy" : d, false, true);
      ps.forEach(p -> s.add(p.throughput(), p.accuracy(), p.lower(), p.upper()));
      data.addSeries(s);
      pointsOf.add(ps);
    });
    YIntervalSeries line = new YIntervalSeries("frontier: no level both more accurate and faster", false, true);
    frontier.forEach(p -> line.add(p.throughput(), p.accuracy(), p.accuracy(), p.accuracy()));
    data.addSeries(line);
    int frontierIndex = data.getSeriesCount() - 1;

    XYErrorRenderer renderer = new XYErrorRenderer();
    renderer.setDrawXError(false);
    renderer.setDrawYError(true);
    renderer.setCapLength(8);
    renderer.setErrorStroke(new BasicStroke(1.5f));
    for (int i = 0; i < frontierIndex; i++) {
      renderer.setSeriesPaint(i, XyCharts.color(i));
      renderer.setSeriesLinesVisible(i, false);
      renderer.setSeriesShapesVisible(i, true);
    }
    renderer.setSeriesPaint(frontierIndex, Color.GRAY);
    renderer.setSeriesLinesVisible(frontierIndex, true);
    renderer.setSeriesShapesVisible(frontierIndex, false);
    renderer.setSeriesStroke(frontierIndex, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
        new float[] {6f, 4f}, 0f));
    // The load beside each point, to the right so that it clears the error bar.
    renderer.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3, TextAnchor.CENTER_LEFT));
    renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    renderer.setDefaultItemLabelsVisible(true);
    renderer.setDefaultItemLabelGenerator((dataset, series, item) -> series == frontierIndex ? null
        : pointsOf.get(series).get(item).load());

    NumberAxis x = new NumberAxis(XyCharts.capitalised(Metric.OUTPUT_THROUGHPUT.heading()));
    x.setAutoRangeIncludesZero(true);
    x.setUpperMargin(0.12);   // room for the label right of the fastest point
    NumberAxis y = new NumberAxis("Accuracy (95% Wilson interval)");
    y.setAutoRangeIncludesZero(false);
    y.setNumberFormatOverride(new Share());
    double lowest = points.stream().mapToDouble(Point::lower).min().orElse(0);
    double highest = points.stream().mapToDouble(Point::upper).max().orElse(1);
    // Room beyond 0% and 100% too, so that a point there and its label are not cut by the plot's edge.
    double pad = Math.max(0.01, (highest - lowest) * 0.08);
    y.setRange(lowest - pad, highest + pad);
    return XyCharts.draw(title + ": accuracy vs output throughput", new XYPlot(data, x, y, renderer), true);
  }

  /** A share as a percentage ({@code 0.905} is 90.5%); no tick label outside 0% to 100%, where the axis only pads. */
  private static final class Share extends DecimalFormat {
    Share() {
      super("0.#%", DecimalFormatSymbols.getInstance(Locale.ROOT));
    }

    @Override
    public StringBuffer format(double share, StringBuffer to, FieldPosition at) {
      return share < -1e-9 || share > 1 + 1e-9 ? to : super.format(share, to, at);
    }
  }
}
