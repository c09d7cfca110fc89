package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.client.RequestResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * What happened inside one level, drawn from its requests (vLLM's {@code --plot-timeline}, {@code aiperf plot}):
 * a timeline with one bar per request (queue, time to first token, decode, failures marked) on one time axis,
 * and output throughput and requests in flight over the level's window. SVG, no scripts, as the sweep charts.
 */
@API(status = INTERNAL)
public final class LevelCharts {

  /** Bars beyond this are thinned to every k-th request by send time, so a 10,000-request level stays a page. */
  static final int MAX_BARS = 400;
  /** Time bins of the over-time chart. */
  static final int BINS = 60;

  static final String AXIS = "Time since the level's first request was due (s)";
  static final String QUEUE = "#bbbbbb";
  static final String TTFT = "#ff7f0e";
  static final String DECODE = "#1f77b4";
  static final String FAILED = "#d62728";

  private static final int WIDTH = SvgCharts.WIDTH;
  private static final int LEFT = 60;
  private static final int RIGHT = 20;
  private static final int TOP = 56;
  private static final int BOTTOM = 44;

  private LevelCharts() {}

  /** One request's bar: all in seconds from the level's first send (queue starts before its send). */
  record Bar(double queueFrom, double sent, Optional<Double> firstToken, double end, boolean failed) {}

  /** The bars of a level's requests by send time, thinned to at most {@link #MAX_BARS}; empty for no requests. */
  static List<Bar> bars(SweepLevelResult level) {
    List<RequestResult> requests = new ArrayList<>(level.requests());
    if (requests.isEmpty()) return List.of();
    requests.sort(Comparator.comparing(RequestResult::startedAt));
    Instant origin = origin(requests);
    int step = (requests.size() + MAX_BARS - 1) / MAX_BARS;
    List<Bar> bars = new ArrayList<>();
    for (int i = 0; i < requests.size(); i += step) {
      RequestResult r = requests.get(i);
      double sent = seconds(Duration.between(origin, r.startedAt()));
      bars.add(new Bar(sent - seconds(r.queueTime()), sent, r.ttft().map(t -> sent + seconds(t)),
          sent + seconds(r.e2eLatency()), !r.succeeded()));
    }
    return bars;
  }

  /** The level's timeline as an SVG document, or empty when it has no requests. */
  public static Optional<String> timeline(SweepLevelResult level) {
    List<Bar> bars = bars(level);
    if (bars.isEmpty()) return Optional.empty();
    int total = level.requests().size();
    double rowHeight = Math.max(1, Math.min(8, 320.0 / bars.size()));
    int plotHeight = (int) Math.ceil(rowHeight * bars.size());
    int height = TOP + plotHeight + BOTTOM;
    double span = bars.stream().mapToDouble(Bar::end).max().orElse(0);
    double tick = niceTick(span);
    double axisEnd = Math.max(tick, Math.ceil(span / tick) * tick);
    double plotWidth = WIDTH - LEFT - RIGHT;
    long failed = level.requests().stream().filter(r -> !r.succeeded()).count();

    StringBuilder s = new StringBuilder();
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\" font-family=\"sans-serif\"")
        .append(" class=\"llmbench-timeline\">");
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    s.append("<text x=\"").append(WIDTH / 2).append("\" y=\"20\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">")
        .append(HtmlSummary.esc(level.label())).append(": requests over time</text>");
    String shown = bars.size() == total ? total + " requests" : bars.size() + " of " + total + " requests (one in "
        + ((total + MAX_BARS - 1) / MAX_BARS) + " by send time)";
    s.append("<text x=\"").append(LEFT).append("\" y=\"40\" font-size=\"11\">").append(HtmlSummary.esc(shown))
        .append(failed > 0 ? ", " + failed + " failed" : "").append("</text>");
    legend(s, WIDTH - RIGHT - 330, 40);
    for (int i = 0; i < bars.size(); i++) {
      Bar b = bars.get(i);
      double y = TOP + i * rowHeight;
      double h = Math.max(0.8, rowHeight * 0.8);
      if (b.sent() > b.queueFrom()) rect(s, x(b.queueFrom(), axisEnd, plotWidth), y, x(b.sent(), axisEnd, plotWidth), h, QUEUE);
      if (b.failed()) {
        rect(s, x(b.sent(), axisEnd, plotWidth), y, x(b.end(), axisEnd, plotWidth), h, FAILED);
      } else {
        double firstToken = b.firstToken().orElse(b.end());
        rect(s, x(b.sent(), axisEnd, plotWidth), y, x(firstToken, axisEnd, plotWidth), h, TTFT);
        rect(s, x(firstToken, axisEnd, plotWidth), y, x(b.end(), axisEnd, plotWidth), h, DECODE);
      }
    }
    int axisY = TOP + plotHeight + 4;
    s.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(axisY).append("\" x2=\"").append(WIDTH - RIGHT)
        .append("\" y2=\"").append(axisY).append("\" stroke=\"#444\"/>");
    // Ticks as multiples, not sums, of the tick: 3 x 0.2 is not 0.2 + 0.2 + 0.2 in binary.
    int decimals = (int) Math.max(0, -Math.floor(Math.log10(tick) + 1e-9));
    for (int k = 0; k * tick <= axisEnd + tick / 2; k++) {
      double t = k * tick;
      String x = num(x(t, axisEnd, plotWidth));
      s.append("<line x1=\"").append(x).append("\" y1=\"").append(axisY).append("\" x2=\"").append(x).append("\" y2=\"")
          .append(axisY + 4).append("\" stroke=\"#444\"/><text x=\"").append(x).append("\" y=\"").append(axisY + 16)
          .append("\" font-size=\"11\" text-anchor=\"middle\">").append(String.format(Locale.ROOT, "%." + decimals + "f", t))
          .append("</text>");
    }
    s.append("<text x=\"").append(WIDTH / 2).append("\" y=\"").append(height - 6)
        .append("\" font-size=\"12\" text-anchor=\"middle\">").append(HtmlSummary.esc(AXIS)).append("</text>");
    s.append("<text x=\"14\" y=\"").append(TOP + plotHeight / 2).append("\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 ")
        .append(TOP + plotHeight / 2).append(")\">Requests by send time</text>");
    return Optional.of(s.append("</svg>").toString());
  }

  private static void legend(StringBuilder s, int x, int y) {
    String[][] items = {{QUEUE, "queue"}, {TTFT, "to first token"}, {DECODE, "decode"}, {FAILED, "failed"}};
    int at = x;
    for (String[] item : items) {
      s.append("<rect x=\"").append(at).append("\" y=\"").append(y - 9).append("\" width=\"10\" height=\"10\" fill=\"")
          .append(item[0]).append("\"/><text x=\"").append(at + 14).append("\" y=\"").append(y).append("\" font-size=\"11\">")
          .append(item[1]).append("</text>");
      at += 24 + item[1].length() * 6;
    }
  }

  private static void rect(StringBuilder s, double x0, double y, double x1, double h, String fill) {
    s.append("<rect x=\"").append(num(x0)).append("\" y=\"").append(num(y)).append("\" width=\"")
        .append(num(Math.max(0.5, x1 - x0))).append("\" height=\"").append(num(h)).append("\" fill=\"").append(fill)
        .append("\"/>");
  }

  private static double x(double t, double axisEnd, double plotWidth) {
    return LEFT + t / axisEnd * plotWidth;
  }

  /** A tick of 1, 2 or 5 times a power of ten that gives 4 to 10 ticks over the span. */
  static double niceTick(double span) {
    if (!(span > 0)) return 1;
    double raw = span / 6;
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    double f = raw / power;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power;
  }

  /**
   * The level's window in {@link #BINS} bins: output tokens per second received in each bin (a chunk's tokens,
   * its request's tokens over its chunks, spread over the gap since the chunk before), and the mean number of
   * requests in flight in each (time in flight within the bin over the bin's width).
   *
   * @param start   bin edges' origin, seconds from the first moment a request waited
   * @param width   bin width in seconds
   * @param tokens  output tokens per second, per bin
   * @param inFlight mean requests in flight, per bin
   */
  record OverTime(double start, double width, double[] tokens, double[] inFlight) {}

  static Optional<OverTime> overTimeData(SweepLevelResult level) {
    List<RequestResult> requests = level.requests();
    if (requests.isEmpty()) return Optional.empty();
    Instant t0 = origin(requests);
    double end = requests.stream().mapToDouble(r -> seconds(Duration.between(t0, r.startedAt())) + seconds(r.e2eLatency()))
        .max().orElse(0);
    if (!(end > 0)) return Optional.empty();
    double width = end / BINS;
    double[] tokens = new double[BINS];
    double[] inFlight = new double[BINS];
    for (RequestResult r : requests) {
      double sent = seconds(Duration.between(t0, r.startedAt()));
      double done = sent + seconds(r.e2eLatency());
      // Time in flight within each bin over the bin's width: the mean number in flight.
      spread(inFlight, sent, done, (done - sent) / width, width);
      if (!r.succeeded() || r.ttft().isEmpty() || r.outputTokens() == 0) continue;
      List<Duration> gaps = r.itls();
      double perChunk = (double) r.outputTokens() / (gaps.size() + 1);
      double at = sent + seconds(r.ttft().get());
      tokens[bin(at, width)] += perChunk;
      for (Duration gap : gaps) {
        // A chunk's tokens spread over the gap before it: counted at arrival instants, bins about as wide as a
        // decode step would alternate between one step and two.
        spread(tokens, at, at + seconds(gap), perChunk, width);
        at += seconds(gap);
      }
    }
    for (int b = 0; b < BINS; b++) tokens[b] /= width;
    return Optional.of(new OverTime(0, width, tokens, inFlight));
  }

  /** Adds {@code amount} to the bins over {@code [from, to]}, each its share of the overlap; all of it at {@code to} if the span is empty. */
  private static void spread(double[] bins, double from, double to, double amount, double width) {
    if (!(to > from)) {
      bins[bin(to, width)] += amount;
      return;
    }
    for (int b = bin(from, width); b <= bin(to, width); b++) {
      double overlap = Math.min(to, (b + 1) * width) - Math.max(from, b * width);
      if (overlap > 0) bins[b] += amount * overlap / (to - from);
    }
  }

  /** Time zero of both charts: the earliest moment any request was waiting, so no bar starts left of the axis. */
  private static Instant origin(List<RequestResult> requests) {
    return requests.stream().map(r -> r.startedAt().minus(r.queueTime())).min(Comparator.naturalOrder()).orElseThrow();
  }

  private static int bin(double t, double width) {
    return Math.max(0, Math.min(BINS - 1, (int) Math.floor(t / width)));
  }

  /** Output throughput and requests in flight over the level's window, one time axis; empty without requests. */
  public static Optional<String> overTime(SweepLevelResult level) {
    return overTimeData(level).map(d -> {
      XYSeries tokens = new XYSeries("output tokens/s", false, true);
      XYSeries inFlight = new XYSeries("requests in flight (mean per bin)", false, true);
      for (int b = 0; b < BINS; b++) {
        // Each bin a flat step from edge to edge, drawn as one path (a step renderer writes a line per step).
        for (int edge = b; edge <= b + 1; edge++) {
          tokens.add(d.start() + edge * d.width(), d.tokens()[b]);
          inFlight.add(d.start() + edge * d.width(), d.inFlight()[b]);
        }
      }
      NumberAxis time = new NumberAxis(AXIS);
      CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
      plot.setGap(12);
      plot.add(subplot(tokens, "Output tok/s", new Color(0x1f77b4)), 3);
      plot.add(subplot(inFlight, "In flight", new Color(0x2ca02c)), 2);
      JFreeChart chart = new JFreeChart(null, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, true);
      chart.setTitle(new TextTitle(level.label() + ": throughput and requests in flight over time",
          new Font(Font.SANS_SERIF, Font.BOLD, 15)));
      chart.setBackgroundPaint(Color.WHITE);
      SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, 360);
      chart.draw(g2, new Rectangle(0, 0, WIDTH, 360));
      return g2.getSVGDocument();
    });
  }

  private static XYPlot subplot(XYSeries series, String label, Color color) {
    NumberAxis y = new NumberAxis(label);
    y.setAutoRangeIncludesZero(true);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
    renderer.setDrawSeriesLineAsPath(true);
    renderer.setSeriesPaint(0, color);
    renderer.setSeriesStroke(0, new BasicStroke(1.5f));
    XYPlot plot = new XYPlot(new XYSeriesCollection(series), null, y, renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdddddd));
    plot.setRangeGridlinePaint(new Color(0xdddddd));
    return plot;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
