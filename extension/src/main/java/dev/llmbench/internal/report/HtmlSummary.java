package dev.llmbench.internal.report;

import dev.llmbench.ConfidenceInterval;
import dev.llmbench.Formats;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.metrics.Distribution;
import dev.llmbench.internal.metrics.Percentiles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** HTML without scripts: a level's summary table, and the sweep's page with tables and inline charts. */
public final class HtmlSummary {

  private static final String STYLE = "<style>body{font-family:sans-serif;margin:1.5em;color:#222}"
      + "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
      + "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.warn{color:#a60}</style>";

  private HtmlSummary() {}

  public static String level(SweepLevelResult r) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(esc(r.label())).append("</title>").append(STYLE).append("</head><body>");
    h.append("<h3>").append(esc(r.label())).append(" — ").append(esc(r.endpoint().toString())).append("</h3>");
    h.append("<table>");
    row(h, "requests", r.succeeded() + " ok / " + r.requestCount() + " (" + r.failed() + " failed)");
    if (!r.errorsByType().isEmpty()) row(h, "errors by type", r.errorsByType().toString());
    row(h, "window", Formats.duration(r.window()));
    ConfidenceInterval ci = r.outputThroughputCi();
    row(h, "output throughput", r.outputThroughput() + String.format(Locale.ROOT, " (95%% CI %.1f–%.1f)", ci.lower(), ci.upper()));
    row(h, "total token throughput", r.totalTokenThroughput().toString());
    row(h, "request throughput", r.requestThroughput().toString());
    if (!r.serviceLevels().isEmpty()) {
      row(h, "SLO", r.serviceLevels().toString());
      row(h, "goodput", r.goodput().toString());
      row(h, "SLO attainment", String.format(Locale.ROOT, "%.1f%%", r.sloAttainment() * 100));
    }
    row(h, "output tokens", r.outputTokens() + " (" + r.reasoningTokens() + " reasoning; source " + r.tokenSource() + ")");
    row(h, "stopped because", r.stopReason().name());
    h.append("</table>");
    h.append(distributionTable(r));
    if (!r.warnings().isEmpty()) {
      h.append("<ul class=\"warn\">");
      r.warnings().forEach(w -> h.append("<li>").append(esc(w)).append("</li>"));
      h.append("</ul>");
    }
    return h.append("</body></html>").toString();
  }

  static String distributionTable(SweepLevelResult r) {
    StringBuilder h = new StringBuilder("<table><tr><th>metric (ms)</th><th>n</th><th>mean</th>");
    for (double p : r.percentiles()) h.append("<th>").append(Percentiles.label(p)).append("</th>");
    h.append("</tr>");
    Map<String, Distribution> ds = new LinkedHashMap<>();
    ds.put("TTFT", r.ttft());
    ds.put("TTFO", r.ttfo());
    ds.put("TPOT", r.tpot());
    ds.put("ITL", r.itl());
    ds.put("E2E latency", r.e2eLatency());
    ds.put("queue time", r.queueTime());
    ds.forEach((name, d) -> {
      h.append("<tr><td>").append(name).append("</td><td>").append(d.count()).append("</td><td>")
          .append(d.mean().map(v -> String.format(Locale.ROOT, "%.1f", v.toNanos() / 1e6)).orElse("-")).append("</td>");
      for (double p : r.percentiles()) {
        String v = ConsoleTable.ms(d, p);
        h.append("<td>").append(v).append(!d.isEmpty() && !d.supports(p) ? "*" : "").append("</td>");
      }
      h.append("</tr>");
    });
    h.append("</table><p>* fewer samples than the percentile needs: the value is the maximum.</p>");
    return h.toString();
  }

  public static String sweep(String title, List<SweepLevelResult> levels, String table, List<String> findings,
      Map<String, String> charts) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(esc(title)).append("</title>").append(STYLE).append("</head><body>");
    h.append("<h2>").append(esc(title)).append("</h2>");
    if (!levels.isEmpty()) h.append("<p>").append(esc(levels.get(0).endpoint().toString())).append("</p>");
    h.append("<pre>").append(esc(table)).append("</pre>");
    h.append("<ul>");
    findings.forEach(f -> h.append("<li>").append(esc(f)).append("</li>"));
    h.append("</ul>");
    charts.values().forEach(svg -> h.append("<div>").append(stripXmlDeclaration(svg)).append("</div>"));
    for (SweepLevelResult l : levels) {
      h.append("<h3>").append(esc(l.label())).append("</h3>").append(distributionTable(l));
    }
    return h.append("</body></html>").toString();
  }

  private static String stripXmlDeclaration(String svg) {
    return svg.startsWith("<?xml") ? svg.substring(svg.indexOf("?>") + 2) : svg;
  }

  private static void row(StringBuilder h, String name, String value) {
    h.append("<tr><th>").append(esc(name)).append("</th><td>").append(esc(value)).append("</td></tr>");
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
