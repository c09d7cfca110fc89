package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ConfidenceInterval;
import dev.llmbench.Delta;
import dev.llmbench.Distribution;
import dev.llmbench.Finding;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.baseline.Baselines;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/** HTML without scripts: a level's summary table, and the sweep's page with tables and inline charts. */
@API(status = INTERNAL)
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
    r.endpoint().roundTrip().ifPresent(rtt -> row(h, "network round trip", rtt.toString()));
    ConfidenceInterval ci = r.outputThroughputCi();
    row(h, Metric.OUTPUT_THROUGHPUT.label(), r.outputThroughput()
        + String.format(Locale.ROOT, " (95%% CI %.1f–%.1f)", ci.lower(), ci.upper()));
    row(h, Metric.TOTAL_TOKEN_THROUGHPUT.label(), r.totalTokenThroughput().toString());
    row(h, Metric.REQUEST_THROUGHPUT.label(), r.requestThroughput().toString());
    if (!r.serviceLevels().isEmpty()) {
      row(h, "SLO", r.serviceLevels().toString());
      row(h, Metric.GOODPUT.label(), r.goodput().toString());
      row(h, Metric.SLO_ATTAINMENT.label(), Formats.percent(r.sloAttainment()));
    }
    row(h, "output tokens", r.outputTokens() + " (" + r.reasoningTokens() + " reasoning; source " + r.tokenSource() + ")");
    row(h, "stopped because", r.stopReason().name());
    r.steadyState().ifPresent(st -> row(h, "steady part", String.format(Locale.ROOT, "%.1f tok/s with all %d in flight for "
        + "%s of %s (ramp %s, drain %s)", st.outputThroughput().perSecond(), st.inFlight(), Formats.duration(st.steady()),
        Formats.duration(st.window()), Formats.duration(st.ramp()), Formats.duration(st.drain()))));
    r.warmup().ifPresent(w -> row(h, "warm-up", w.requests() + " requests of max_tokens " + w.maxTokens() + " in "
        + w.rounds() + " round(s), at most " + w.peakInFlight() + " in flight (target " + w.target() + "), " + w.failed()
        + " failed, " + Formats.duration(w.time())));
    r.prefixCache().ifPresent(p -> row(h, "prefix cache", p.cachedTokens() + " of " + p.promptTokens()
        + " prompt tokens cached (" + Formats.percent(p.hitRate()) + ", " + p.source() + ")"));
    r.clientLoad().ifPresent(c -> row(h, "client", String.format(Locale.ROOT, "CPU %s of %d cores (JVM %s, machine %s), "
        + "wake-up lag p50 %s p90 %s max %s, %.0f events/s", Formats.percent(c.clientCpuShare()), c.cores(),
        Formats.percent(c.processCpuShare()), Formats.percent(c.machineCpuShare()), Formats.duration(c.wakeupLagP50()),
        Formats.duration(c.wakeupLagP90()), Formats.duration(c.wakeupLagMax()), c.eventsPerSecond())));
    r.deploymentDescription().ifPresent(d -> row(h, "deployment", d.describe()));
    r.gpuTelemetry().ifPresent(g -> {
      row(h, "GPUs", GpuText.summary(g));
      g.gpus().forEach(gpu -> row(h, gpu.name(), GpuText.one(gpu).substring(gpu.name().length() + 2)));
    });
    h.append("</table>");
    h.append(distributionTable(r));
    if (r instanceof MeasuredLevel m) Baselines.of(m).ifPresent(c -> h.append(baselineTable(List.of(m))));
    if (!r.warnings().isEmpty()) {
      h.append("<ul class=\"warn\">");
      r.warnings().forEach(w -> h.append("<li>").append(esc(w)).append("</li>"));
      h.append("</ul>");
    }
    h.append(findings(r.findings()));
    return h.append("</body></html>").toString();
  }

  /** Every latency metric of a level, in milliseconds: count, mean and each reported percentile. */
  static String distributionTable(SweepLevelResult r) {
    StringBuilder h = new StringBuilder("<table><tr><th>metric (ms)</th><th>n</th><th>mean</th>");
    for (double p : r.percentiles()) h.append("<th>").append(Formats.percentile(p)).append("</th>");
    h.append("</tr>");
    for (Metric m : Metric.values()) {
      if (!m.isLatency()) continue;
      Distribution d = m.distributionOf(r);
      h.append("<tr><td>").append(m.label()).append("</td><td>").append(d.count()).append("</td><td>")
          .append(d.mean().map(v -> String.format(Locale.ROOT, "%.1f", v.toNanos() / 1e6)).orElse("-")).append("</td>");
      for (double p : r.percentiles()) {
        String v = ConsoleTable.ms(d, p);
        h.append("<td>").append(v).append(!d.isEmpty() && !d.supports(p) ? "*" : "").append("</td>");
      }
      h.append("</tr>");
    }
    h.append("</table><p>* fewer samples than the percentile needs: the value is the maximum.</p>");
    return h.toString();
  }

  public static String sweep(SweepSummary summary) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(esc(summary.title())).append("</title>").append(STYLE).append("</head><body>");
    h.append("<h2>").append(esc(summary.title())).append("</h2>");
    List<? extends SweepLevelResult> levels = summary.levels();
    // Every endpoint the sweep measured: one, or one per deployment.
    levels.stream().map(l -> l.endpoint().toString()).distinct()
        .forEach(e -> h.append("<p>").append(esc(e)).append("</p>"));
    summary.deployment().ifPresent(d -> h.append("<p>deployment: ").append(esc(d.describe())).append("</p>"));
    h.append("<pre>").append(esc(summary.table())).append("</pre>");
    h.append(findings(summary.findings()));
    if (!summary.conclusions().isEmpty()) {
      h.append("<h3>Conclusions</h3><ul>");
      summary.conclusions().forEach(c -> h.append("<li>").append(esc(c)).append("</li>"));
      h.append("</ul>");
    }
    if (summary.levels().stream().anyMatch(l -> Baselines.of(l).isPresent())) h.append(baselineTable(summary.levels()));
    summary.charts().values().forEach(svg -> h.append("<div>").append(stripXmlDeclaration(svg)).append("</div>"));
    for (SweepLevelResult l : levels) {
      h.append("<h3>").append(esc(l.label())).append("</h3>").append(distributionTable(l));
    }
    return h.append("</body></html>").toString();
  }

  /** Every level's deltas against its baseline, one row per figure. */
  static String baselineTable(List<MeasuredLevel> levels) {
    StringBuilder h = new StringBuilder("<h3>Against the baseline</h3><table><tr><th>level</th><th>figure</th><th>baseline</th>"
        + "<th>now</th><th>change</th><th>95% CI of the change</th><th>verdict</th></tr>");
    for (MeasuredLevel l : levels) {
      Baselines.of(l).ifPresent(c -> {
        if (c.isEmpty()) h.append("<tr><td>").append(esc(l.label())).append("</td><td colspan=\"6\">not in the baseline</td></tr>");
        for (Delta d : c.deltas()) {
          h.append("<tr><td>").append(esc(l.label())).append("</td><td>").append(esc(d.figure())).append("</td><td>")
              .append(String.format(Locale.ROOT, "%.2f %s</td><td>%.2f %s</td><td>%+.1f%%</td><td>%+.1f%% to %+.1f%%</td>",
                  d.reference(), d.metric().unit(), d.current(), d.metric().unit(), d.change().estimate() * 100,
                  d.change().lower() * 100, d.change().upper() * 100))
              .append("<td").append(d.verdict() == Delta.Verdict.REGRESSED ? " class=\"warn\"" : "").append(">")
              .append(d.verdict().name().toLowerCase(Locale.ROOT)).append("</td></tr>");
        }
      });
    }
    return h.append("</table>").toString();
  }

  /** Each finding: its kind and summary, then its evidence, likely causes, what is ruled out and what to try. */
  static String findings(List<Finding> findings) {
    if (findings.isEmpty()) return "";
    StringBuilder h = new StringBuilder("<h3>Findings</h3><ol class=\"findings\">");
    for (Finding f : findings) {
      h.append("<li><b>").append(esc(f.kind().label())).append("</b>: ").append(esc(f.summary()));
      if (!f.evidence().isEmpty()) {
        h.append("<table>");
        f.evidence().forEach(e -> h.append("<tr><td>").append(esc(e.name())).append("</td><td>")
            .append(esc(e.toString().substring(e.name().length() + 3))).append("</td></tr>"));
        h.append("</table>");
      }
      list(h, "likely causes, most likely first", f.causes().stream().map(Finding.Cause::toString).toList(), true);
      list(h, "ruled out", f.ruledOut().stream().map(Finding.Cause::toString).toList(), false);
      list(h, "try", f.nextSteps(), false);
      h.append("</li>");
    }
    return h.append("</ol>").toString();
  }

  private static void list(StringBuilder h, String title, List<String> items, boolean ordered) {
    if (items.isEmpty()) return;
    String tag = ordered ? "ol" : "ul";
    h.append("<div>").append(esc(title)).append(":<").append(tag).append(">");
    items.forEach(i -> h.append("<li>").append(esc(i)).append("</li>"));
    h.append("</").append(tag).append("></div>");
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
