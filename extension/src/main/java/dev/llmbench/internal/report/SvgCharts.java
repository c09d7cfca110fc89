package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ScalingAnalysis;
import dev.llmbench.internal.analysis.SweepGroups;
import dev.llmbench.internal.chart.XyCharts;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.workload.LengthStats;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.LoadShape;
import java.awt.Color;
import java.text.DecimalFormat;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apiguardian.api.API;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.StandardXYItemLabelGenerator;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The sweep's charts as standalone SVG, drawn on the JVM (no JavaScript, no CDN): Allure shows them as
 * images and they open offline. Every point carries its value as a label; a sweep that crosses loads
 * with several output or input lengths gets one curve per length.
 */
@API(status = INTERNAL)
public final class SvgCharts {

  static final int WIDTH = XyCharts.WIDTH;

  private static final NumberFormat POWER_OF_TWO = new DecimalFormat("0") {
    private static final long serialVersionUID = 1L;

    @Override
    public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
      return to.append(Math.round(Math.pow(2, number)));
    }
  };

  private SvgCharts() {}

  /** One curve: its name, and for each level the value plotted (NaN to skip). */
  private record Curve(String name, List<SweepLevelResult> levels, ToDoubleFunction<SweepLevelResult> y) {}

  /**
   * Chart file names (without extension) to SVG documents. Titles name the figure and the load only: the page, the
   * Allure result and the folder around a chart already name the sweep.
   */
  public static Map<String, String> forSweep(List<? extends SweepLevelResult> levels) {
    Map<String, String> charts = new LinkedHashMap<>();
    if (levels.isEmpty()) return charts;
    boolean open = levels.get(0).load() instanceof LoadShape.OpenLoop;
    String by = open ? " by request rate" : " by concurrency";
    // One curve per workload, and per deployment when the sweep compares several.
    Map<String, List<SweepLevelResult>> groups = SweepGroups.curves(levels);
    Metric throughput = Metric.OUTPUT_THROUGHPUT;
    charts.put("throughput", chart(capitalised(throughput.label()) + by, capitalised(throughput.heading()), open,
        curves(groups, throughput.label(), throughput::valueOf), "0.0"));
    charts.put("latency", chart(Metric.E2E_LATENCY.label() + by, Metric.E2E_LATENCY.label() + " (s)", open,
        curves(groups, "p50", l -> seconds(l.e2eLatency(), 50), "p99", l -> seconds(l.e2eLatency(), 99)), "0.00"));
    charts.put("ttft", chart(Metric.TTFT.label() + by, Metric.TTFT.heading(), open,
        curves(groups, "p50", l -> seconds(l.ttft(), 50) * 1000, "p99", l -> seconds(l.ttft(), 99) * 1000), "0.0"));
    if (!open) {
      List<Curve> efficiency = new ArrayList<>();
      groups.forEach((group, members) -> {
        Map<Integer, Double> byC = new LinkedHashMap<>();
        ScalingAnalysis.of(members).points().forEach(p -> byC.put(p.concurrency(), p.efficiency() * 100));
        efficiency.add(new Curve(named("efficiency", group), members, l -> byC.getOrDefault(l.concurrency(), Double.NaN)));
      });
      charts.put("efficiency", chart("Scaling efficiency" + by, "Efficiency (% of linear)", false, efficiency, "0"));
    }
    charts.put("tradeoff", tradeoff("Latency vs throughput", groups, open));
    return charts;
  }

  private static List<Curve> curves(Map<String, List<SweepLevelResult>> groups, String name,
      ToDoubleFunction<SweepLevelResult> y) {
    List<Curve> curves = new ArrayList<>();
    groups.forEach((group, members) -> curves.add(new Curve(named(name, group), members, y)));
    return curves;
  }

  private static List<Curve> curves(Map<String, List<SweepLevelResult>> groups, String a,
      ToDoubleFunction<SweepLevelResult> ya, String b, ToDoubleFunction<SweepLevelResult> yb) {
    List<Curve> curves = new ArrayList<>();
    groups.forEach((group, members) -> {
      curves.add(new Curve(named(a, group), members, ya));
      curves.add(new Curve(named(b, group), members, yb));
    });
    return curves;
  }

  private static String named(String name, String group) {
    return group.isEmpty() ? name : name + " (" + group + ")";
  }

  private static String capitalised(String s) {
    return XyCharts.capitalised(s);
  }

  private static double seconds(Distribution d, double p) {
    return d.percentile(p).map(v -> v.toNanos() / 1e9).orElse(Double.NaN);
  }

  /** The x of a level: log2(C) for a closed loop (ticks read 1, 2, 4, ...), the offered rate for an open loop. */
  private static double x(SweepLevelResult l, boolean open) {
    return open ? SweepGroups.rate(l) : Math.log(l.concurrency()) / Math.log(2);
  }

  static String chart(String title, String yLabel, boolean open, List<Curve> curves, String valueFormat) {
    XYSeriesCollection data = new XYSeriesCollection();
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (Curve c : curves) {
      XYSeries s = new XYSeries(c.name());
      for (SweepLevelResult l : c.levels()) {
        double v = c.y().applyAsDouble(l);
        double x = x(l, open);
        min = Math.min(min, x);
        max = Math.max(max, x);
        if (!Double.isNaN(v)) s.add(x, v);
      }
      data.addSeries(s);
    }
    NumberAxis x;
    if (open) {
      x = new NumberAxis("Offered request rate (req/s)");
      x.setAutoRangeIncludesZero(true);
    } else {
      x = new NumberAxis("Concurrency (requests in flight, log2 scale)");
      x.setTickUnit(new NumberTickUnit(1, POWER_OF_TWO));
      x.setRange(min - 0.5, max + 0.5);
    }
    NumberAxis y = new NumberAxis(yLabel);
    y.setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer renderer = renderer(curves.size());
    renderer.setDefaultItemLabelGenerator(new StandardXYItemLabelGenerator("{2}", new DecimalFormat("0"),
        new DecimalFormat(valueFormat)));
    return draw(title, new XYPlot(data, x, y, renderer), curves.size() > 1);
  }

  static String tradeoff(String title, Map<String, List<SweepLevelResult>> groups, boolean open) {
    XYSeriesCollection data = new XYSeriesCollection();
    List<List<SweepLevelResult>> pointsOf = new ArrayList<>();
    groups.forEach((group, members) -> {
      List<SweepLevelResult> withLatency = members.stream().filter(l -> !l.e2eLatency().isEmpty()).toList();
      for (double p : new double[] {50, 99}) {
        XYSeries s = new XYSeries(named("p" + (int) p + " latency", group), false);
        withLatency.forEach(l -> s.add(l.outputThroughput().perSecond(), seconds(l.e2eLatency(), p)));
        data.addSeries(s);
        pointsOf.add(withLatency);
      }
    });
    NumberAxis x = new NumberAxis(capitalised(Metric.OUTPUT_THROUGHPUT.heading()));
    NumberAxis y = new NumberAxis(Metric.E2E_LATENCY.label() + " (s)");
    y.setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer renderer = renderer(data.getSeriesCount());
    // Each point is labelled with the level it came from.
    renderer.setDefaultItemLabelGenerator((dataset, series, item) -> {
      SweepLevelResult l = pointsOf.get(series).get(item);
      return open ? Formats.rate(SweepGroups.rate(l)) + "/s" : "C=" + l.concurrency();
    });
    return draw(title, new XYPlot(data, x, y, renderer), true);
  }

  /**
   * A level's requested and actual lengths (input or output tokens) as a histogram on shared bins: bars
   * for the requested, drawn half-transparent over the actual, so a gap between what was asked and what
   * the server counted shows as bars that do not overlap.
   */
  public static String lengths(String title, String axis, LengthStats requested, LengthStats actual) {
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    data.addSeries(bins("requested (" + requested.count() + ")", requested));
    data.addSeries(bins("actual (" + actual.count() + ")", actual));
    NumberAxis x = new NumberAxis(axis);
    x.setAutoRangeIncludesZero(false);
    NumberAxis y = new NumberAxis("Requests");
    y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    XYBarRenderer bars = new XYBarRenderer();
    bars.setShadowVisible(false);
    bars.setBarPainter(new StandardXYBarPainter());
    bars.setSeriesPaint(0, new Color(0x1f, 0x77, 0xb4, 150));
    bars.setSeriesPaint(1, new Color(0xd6, 0x27, 0x28, 150));
    return draw(title, new XYPlot(data, x, y, bars), true);
  }

  private static XYIntervalSeries bins(String name, LengthStats s) {
    XYIntervalSeries series = new XYIntervalSeries(name);
    int[] e = s.edges();
    for (int i = 0; i < s.counts().length; i++) {
      series.add((e[i] + e[i + 1]) / 2.0, e[i], e[i + 1], s.counts()[i], s.counts()[i], s.counts()[i]);
    }
    return series;
  }

  private static XYLineAndShapeRenderer renderer(int seriesCount) {
    return XyCharts.renderer(seriesCount);
  }

  private static String draw(String title, XYPlot plot, boolean legend) {
    return XyCharts.draw(title, plot, legend);
  }
}
