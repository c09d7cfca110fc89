package dev.llmbench.report;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.analysis.ScalingAnalysis;
import dev.llmbench.metrics.Distribution;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.text.DecimalFormat;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.StandardXYItemLabelGenerator;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * The sweep's charts as standalone SVG, drawn on the JVM (no JavaScript, no CDN): Allure shows them as
 * images and they open offline. Every point carries its value as a label.
 */
public final class SvgCharts {

  static final int WIDTH = 720;
  static final int HEIGHT = 420;
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};

  static {
    System.setProperty("java.awt.headless", "true");
    // Rotated labels (the y-axis title) as <text>, not glyph outlines: selectable and checkable.
    org.jfree.chart.text.TextUtils.setUseDrawRotatedStringWorkaround(false);
  }

  private SvgCharts() {}

  private static final java.text.NumberFormat POWER_OF_TWO = new DecimalFormat("0") {
    private static final long serialVersionUID = 1L;

    @Override
    public StringBuffer format(double number, StringBuffer to, java.text.FieldPosition pos) {
      return to.append(Math.round(Math.pow(2, number)));
    }
  };

  private static double log2(int c) {
    return Math.log(c) / Math.log(2);
  }

  /** Chart file names (without extension) to SVG documents, for a closed-loop sweep. */
  public static Map<String, String> forSweep(String title, List<SweepLevelResult> levels) {
    List<SweepLevelResult> sorted = levels.stream().filter(l -> !l.plan().isOpenLoop())
        .sorted(Comparator.comparingInt(SweepLevelResult::concurrency)).toList();
    Map<String, String> charts = new LinkedHashMap<>();
    if (sorted.isEmpty()) return charts;
    charts.put("throughput", concurrencyChart(title + ": output throughput", "Output throughput (tok/s)", sorted,
        Map.of("output tok/s", l -> l.outputThroughput().perSecond()), "0.0"));
    charts.put("latency", concurrencyChart(title + ": end-to-end latency", "Latency (s)", sorted,
        ordered("p50", l -> seconds(l.e2eLatency(), 50), "p99", l -> seconds(l.e2eLatency(), 99)), "0.00"));
    charts.put("ttft", concurrencyChart(title + ": time to first token", "TTFT (ms)", sorted,
        ordered("p50", l -> seconds(l.ttft(), 50) * 1000, "p99", l -> seconds(l.ttft(), 99) * 1000), "0.0"));
    ScalingAnalysis analysis = ScalingAnalysis.of(sorted);
    Map<Integer, Double> efficiency = new LinkedHashMap<>();
    analysis.points().forEach(p -> efficiency.put(p.concurrency(), p.efficiency() * 100));
    charts.put("efficiency", concurrencyChart(title + ": scaling efficiency", "Efficiency (% of linear)", sorted,
        Map.of("efficiency", l -> efficiency.getOrDefault(l.concurrency(), Double.NaN)), "0"));
    charts.put("tradeoff", tradeoffChart(title + ": latency vs throughput", sorted));
    return charts;
  }

  private static Map<String, Function<SweepLevelResult, Double>> ordered(String a, Function<SweepLevelResult, Double> fa,
      String b, Function<SweepLevelResult, Double> fb) {
    Map<String, Function<SweepLevelResult, Double>> m = new LinkedHashMap<>();
    m.put(a, fa);
    m.put(b, fb);
    return m;
  }

  private static double seconds(Distribution d, double p) {
    return d.percentile(p).map(v -> v.toNanos() / 1e9).orElse(Double.NaN);
  }

  static String concurrencyChart(String title, String yLabel, List<SweepLevelResult> levels,
      Map<String, Function<SweepLevelResult, Double>> series, String valueFormat) {
    XYSeriesCollection data = new XYSeriesCollection();
    series.forEach((name, f) -> {
      XYSeries s = new XYSeries(name);
      for (SweepLevelResult l : levels) {
        double v = f.apply(l);
        if (!Double.isNaN(v)) s.add(log2(l.concurrency()), v);
      }
      data.addSeries(s);
    });
    // Plotted at log2(C) on a linear axis whose tick labels read 2^v: ticks land on 1, 2, 4, 8, ...
    NumberAxis x = new NumberAxis("Concurrency (requests in flight, log2 scale)");
    x.setTickUnit(new NumberTickUnit(1, POWER_OF_TWO));
    double min = log2(levels.get(0).concurrency());
    double max = log2(levels.get(levels.size() - 1).concurrency());
    x.setRange(min - 0.5, max + 0.5);
    NumberAxis y = new NumberAxis(yLabel);
    y.setAutoRangeIncludesZero(true);
    return draw(title, new XYPlot(data, x, y, renderer(valueFormat, series.size())), series.size() > 1);
  }

  static String tradeoffChart(String title, List<SweepLevelResult> levels) {
    XYSeries p50 = new XYSeries("p50 latency", false);
    XYSeries p99 = new XYSeries("p99 latency", false);
    for (SweepLevelResult l : levels) {
      double t = l.outputThroughput().perSecond();
      if (!l.e2eLatency().isEmpty()) {
        p50.add(t, seconds(l.e2eLatency(), 50));
        p99.add(t, seconds(l.e2eLatency(), 99));
      }
    }
    XYSeriesCollection data = new XYSeriesCollection();
    data.addSeries(p50);
    data.addSeries(p99);
    NumberAxis x = new NumberAxis("Output throughput (tok/s)");
    NumberAxis y = new NumberAxis("Latency (s)");
    y.setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer renderer = renderer("0.00", 2);
    // Label each point with the level it came from.
    renderer.setDefaultItemLabelGenerator((dataset, series, item) -> "C=" + levels.get(item).concurrency());
    return draw(title, new XYPlot(data, x, y, renderer), true);
  }

  private static XYLineAndShapeRenderer renderer(String valueFormat, int seriesCount) {
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < seriesCount; i++) {
      r.setSeriesPaint(i, COLORS[i % COLORS.length]);
      r.setSeriesStroke(i, new BasicStroke(2f));
    }
    r.setDefaultItemLabelGenerator(new StandardXYItemLabelGenerator("{2}", new DecimalFormat("0"), new DecimalFormat(valueFormat)));
    r.setDefaultItemLabelsVisible(true);
    r.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    return r;
  }

  private static String draw(String title, XYPlot plot, boolean legend) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdddddd));
    plot.setRangeGridlinePaint(new Color(0xdddddd));
    JFreeChart chart = new JFreeChart(null, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, legend);
    chart.setTitle(new TextTitle(title, new Font(Font.SANS_SERIF, Font.BOLD, 15)));
    chart.setBackgroundPaint(Color.WHITE);
    SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
    chart.draw(g2, new Rectangle(0, 0, WIDTH, HEIGHT));
    return g2.getSVGDocument();
  }
}
