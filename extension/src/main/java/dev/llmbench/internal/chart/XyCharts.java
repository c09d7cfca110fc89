package dev.llmbench.internal.chart;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import org.apiguardian.api.API;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.svg.SVGGraphics2D;

/**
 * The look every XY chart shares (size, colours, labelled points, white background) and its drawing as
 * standalone SVG: for the reports' charts and for the charts a sweep feature adds, which need no report type.
 */
@API(status = INTERNAL)
public final class XyCharts {

  public static final int WIDTH = 720;
  public static final int HEIGHT = 420;
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
      new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b)};

  static {
    // Rotated labels (the y-axis title) as <text>, not glyph outlines: selectable and checkable. A JFreeChart
    // setting, not a JVM-wide one; SVGGraphics2D needs no display, so the JVM's headless mode is left alone.
    TextUtils.setUseDrawRotatedStringWorkaround(false);
  }

  private XyCharts() {}

  /** The colour of series {@code i}, as {@link #renderer} gives it: for a renderer of another kind. */
  public static Color color(int i) {
    return COLORS[i % COLORS.length];
  }

  /** Lines with labelled points, one colour per series, labels alternating above and below. */
  public static XYLineAndShapeRenderer renderer(int seriesCount) {
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < seriesCount; i++) {
      r.setSeriesPaint(i, color(i));
      r.setSeriesStroke(i, new BasicStroke(2f));
      // Alternate labels above and below the points, so that close curves (p50, p99) stay readable.
      r.setSeriesPositiveItemLabelPosition(i, new ItemLabelPosition(
          i % 2 == 0 ? ItemLabelAnchor.OUTSIDE6 : ItemLabelAnchor.OUTSIDE12,
          i % 2 == 0 ? TextAnchor.TOP_CENTER : TextAnchor.BOTTOM_CENTER));
    }
    r.setDefaultItemLabelsVisible(true);
    r.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    return r;
  }

  /** The plot under its title as an SVG document. */
  public static String draw(String title, XYPlot plot, boolean legend) {
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

  /** {@code Output throughput} from {@code output throughput}: an axis title from a metric's heading. */
  public static String capitalised(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
