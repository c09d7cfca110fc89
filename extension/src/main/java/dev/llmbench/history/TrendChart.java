package dev.llmbench.history;

import dev.llmbench.internal.chart.XyCharts;
import java.awt.BasicStroke;
import java.awt.Color;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.DeviationRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * One figure over the newest runs, a line per level: each run's value as a point, and between change points the
 * stretch's mean with its noise band (mean ± one standard deviation, {@link Series#stretches}) shaded behind, so a
 * step reads as one band ending and another starting. The runs are on the x axis by commit (by date without one).
 */
final class TrendChart {

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd HH:mm").withZone(ZoneOffset.UTC);

  private TrendChart() {}

  /**
   * @param series   one figure's series, one per level, of the runs shown
   * @param settings how change points are searched, which the bands follow
   */
  static String of(List<Series> series, ChangePointSettings settings) {
    // Every run any level holds, oldest first: the levels share the axis even where one missed a run.
    List<RunIdentity> runs = new ArrayList<>();
    series.stream().flatMap(s -> s.points().stream()).map(Series.Point::run).distinct()
        .sorted((a, b) -> a.time().compareTo(b.time())).forEach(runs::add);
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < runs.size(); i++) position.putIfAbsent(runs.get(i).id(), i);

    XYSeriesCollection values = new XYSeriesCollection();
    YIntervalSeriesCollection bands = new YIntervalSeriesCollection();
    DeviationRenderer bandRenderer = new DeviationRenderer(true, false);
    int band = 0;
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      XYSeries line = new XYSeries(s.level().deployment().isEmpty() ? s.level().level()
          : s.level().deployment() + ": " + s.level().level(), false, true);
      s.points().forEach(p -> line.add((double) position.get(p.run().id()), p.value()));
      values.addSeries(line);
      for (Series.Stretch st : s.stretches(settings)) {
        YIntervalSeries b = new YIntervalSeries(line.getKey() + " band " + band, false, true);
        for (int k = st.from(); k < st.to(); k++) {
          b.add(position.get(s.points().get(k).run().id()), st.mean(), st.mean() - st.stdDev(), st.mean() + st.stdDev());
        }
        bands.addSeries(b);
        Color c = XyCharts.color(i);
        bandRenderer.setSeriesPaint(band, c);
        bandRenderer.setSeriesFillPaint(band, c);
        bandRenderer.setSeriesStroke(band, new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {5f, 3f}, 0f));
        bandRenderer.setSeriesVisibleInLegend(band, false);
        band++;
      }
    }
    // The band shaded lightly behind the points: the renderer draws the fill paint at this opacity.
    bandRenderer.setAlpha(0.2f);

    XYLineAndShapeRenderer valueRenderer = XyCharts.renderer(series.size());
    valueRenderer.setDefaultItemLabelsVisible(false);
    String[] labels = runs.stream().map(r -> r.commit().isEmpty() ? DAY.format(r.time()) : r.shortCommit())
        .toArray(String[]::new);
    SymbolAxis x = new SymbolAxis("Run by commit, oldest left; bands: mean ± 1 sd between change points", labels);
    x.setVerticalTickLabels(true);
    Series first = series.get(0);
    NumberAxis y = new NumberAxis(XyCharts.capitalised(first.label()) + (first.unit().isEmpty() ? "" : " (" + first.unit() + ")"));
    y.setAutoRangeIncludesZero(false);
    XYPlot plot = new XYPlot(values, x, y, valueRenderer);
    plot.setDataset(1, bands);
    plot.setRenderer(1, bandRenderer);
    return XyCharts.draw(XyCharts.capitalised(first.label()) + " over the last " + runs.size() + " runs", plot, true);
  }
}
