package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.Finding;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/** HTML without scripts: a level's summary table, and the sweep's page with tables and inline charts. */
@API(status = INTERNAL)
public final class HtmlSummary {

  static final String STYLE = "<style>body{font-family:sans-serif;margin:1.5em;color:#222;max-width:80em}"
      + "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
      + "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.warn{color:#a60}"
      + "pre{white-space:pre-wrap;font-size:90%}summary{cursor:pointer;margin:.4em 0}"
      + ".verdict{border-left:4px solid #1f77b4;background:#f5f9ff;padding:.2em 1em;margin:1em 0}"
      + ".verdict .failed{color:#b00}.verdict.failed,.verdict.broken{border-left-color:#b00;background:#fff5f5}"
      + ".verdict.passed{border-left-color:#2a7d2a}.verdict h2{margin:.3em 0}.simulator{color:#a60;font-weight:bold}"
      + "table.facts th,table.facts td,table.overview td{text-align:left}.charts div{display:inline-block;vertical-align:top}</style>";

  private HtmlSummary() {}

  public static String level(SweepLevelResult r) {
    return level(r, List.of());
  }

  /** The level's page, with what the sweep's features say of the level under its figures. */
  static String level(SweepLevelResult r, List<FeatureSection> sections) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(esc(r.label())).append("</title>").append(STYLE).append("</head><body>");
    h.append("<h3>").append(esc(r.label())).append(" — ").append(esc(r.endpoint().toString())).append("</h3>");
    simulator(h, r.endpoint().embedded().map(p -> "measured on the embedded simulator (profile '" + p + "'), not a real server"));
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
    r.scheduleLag().filter(d -> !d.isEmpty()).ifPresent(d -> row(h, "schedule lag (sent minus due)", ScheduleLag.describe(d)));
    r.steadyState().ifPresent(st -> row(h, "steady part", String.format(Locale.ROOT, "%.1f tok/s with all %d in flight for "
        + "%s of %s (ramp %s, drain %s)", st.outputThroughput().perSecond(), st.inFlight(), Formats.duration(st.steady()),
        Formats.duration(st.window()), Formats.duration(st.ramp()), Formats.duration(st.drain()))));
    r.warmup().ifPresent(w -> row(h, "warm-up", w.requests() + " requests of max_tokens " + warmupAsked(r, w) + " in "
        + w.rounds() + " round(s), at most " + w.peakInFlight() + " in flight (target " + w.target() + "), " + w.failed()
        + " failed, " + Formats.duration(w.time())));
    if (r instanceof MeasuredLevel m) {
      m.plan().workload().prompts().generator().flatMap(g -> g.describe()).ifPresent(d -> row(h, "workload", d));
    }
    readingRows(h, r, LevelReading.Place.WORKLOAD);
    r.prefixCache().ifPresent(p -> row(h, "prefix cache", p.cachedTokens() + " of " + p.promptTokens()
        + " prompt tokens cached (" + Formats.percent(p.hitRate()) + ", " + p.source() + ")"));
    r.clientLoad().ifPresent(c -> row(h, "client", String.format(Locale.ROOT, "CPU %s of %d cores and waiting for a core %s (%s each time, mean; JVM %s, machine %s), "
        + "wake-up lag p50 %s p90 %s max %s, %.0f events/s", Formats.percent(c.clientCpuShare()), c.cores(),
        Formats.percent(c.clientWaitShare()), Formats.duration(c.clientWaitPerRun()), Formats.percent(c.processCpuShare()), Formats.percent(c.machineCpuShare()),
        Formats.duration(c.wakeupLagP50()),
        Formats.duration(c.wakeupLagP90()), Formats.duration(c.wakeupLagMax()), c.eventsPerSecond())));
    r.deploymentDescription().ifPresent(d -> row(h, "deployment", d.describe()));
    readingRows(h, r, LevelReading.Place.DEPLOYMENT);
    Optional<LevelWorkload> workload = r instanceof MeasuredLevel m ? LevelWorkload.of(m) : Optional.empty();
    workload.ifPresent(w -> workloadRows(h, w));
    h.append("</table>");
    h.append(distributionTable(r));
    sections.forEach(f -> f.html().ifPresent(h::append));
    if (r instanceof MeasuredLevel m) {
      LevelDocuments.charts(m).values().forEach(svg -> h.append("<div>").append(stripXmlDeclaration(svg)).append("</div>"));
    }
    if (!r.warnings().isEmpty()) {
      h.append("<ul class=\"warn\">");
      r.warnings().forEach(w -> h.append("<li>").append(esc(w)).append("</li>"));
      h.append("</ul>");
    }
    h.append(findings(r.findings()));
    return h.append("</body></html>").toString();
  }

  /** The rows and lengths a level sent: which file, how many rows and their range, lengths asked for and got. */
  static void workloadRows(StringBuilder h, LevelWorkload w) {
    row(h, "prompts", w.prompts());
    w.datasetRows().ifPresent(rows -> row(h, "dataset rows", rows));
    row(h, "input tokens", "asked " + w.inputSpec() + ": " + w.requestedInput() + "; got " + w.actualInput());
    row(h, "output tokens", "asked " + w.outputSpec() + ": " + w.requestedOutput() + "; got " + w.actualOutput());
  }


  /**
   * Every latency metric a level has values of, in milliseconds: count, mean and each reported percentile. A metric
   * with none (the time to first tool call of a level without tool calls, the streaming figures of an embeddings
   * level) has no row: an empty row reads as a figure that was lost.
   */
  static String distributionTable(SweepLevelResult r) {
    StringBuilder h = new StringBuilder("<table><tr><th>metric (ms)</th><th>n</th><th>mean</th>");
    for (double p : r.percentiles()) h.append("<th>").append(Formats.percentile(p)).append("</th>");
    h.append("</tr>");
    for (Metric m : Metric.values()) {
      if (!m.isLatency()) continue;
      Distribution d = m.distributionOf(r);
      if (d.isEmpty()) continue;
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

  /**
   * The sweep's page, answer first: the verdict (conclusions, SLO outcome, what failed), the features' part of the
   * decision (their {@link FeatureSection#lead() leads}: quality against speed), the headline charts,
   * the findings heaviest first with the minor ones folded, the table, the other charts, and each level's
   * timeline and figures folded under its name.
   */
  public static String sweep(SweepSummary summary) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
        .append(esc(summary.title())).append("</title>").append(STYLE).append("</head><body>");
    h.append("<h2>").append(esc(summary.title())).append("</h2>");
    List<MeasuredLevel> levels = summary.levels();
    h.append(verdict(summary.verdict(), SweepAnswer.of(summary)));
    h.append(facts(summary));
    summary.sections().forEach(f -> f.lead().ifPresent(h::append));
    Map<String, String> charts = summary.charts();
    List<String> headline = headlineCharts(charts);
    h.append("<div class=\"charts\">");
    headline.forEach(name -> h.append("<div>").append(stripXmlDeclaration(charts.get(name))).append("</div>"));
    h.append("</div>");
    h.append(rankedFindings(summary.findings()));
    // TPOT and ITL make the table wide: it scrolls in its own box rather than widening the page.
    h.append("<h3>Levels</h3><div style=\"overflow-x:auto\">").append(levelTable(levels)).append("</div>");
    h.append("<details><summary>the table as the console prints it, with the steady-state, server and network lines</summary><pre>")
        .append(esc(summary.table())).append("</pre></details>");
    summary.sections().forEach(f -> f.html().ifPresent(h::append));
    if (charts.size() > headline.size()) {
      h.append("<h3>More charts</h3><div class=\"charts\">");
      charts.forEach((name, svg) -> {
        if (!headline.contains(name)) h.append("<div>").append(stripXmlDeclaration(svg)).append("</div>");
      });
      h.append("</div>");
    }
    h.append("<h3>Inside each level</h3>");
    for (MeasuredLevel l : levels) {
      h.append("<details class=\"level\"><summary>").append(esc(l.label())).append("</summary>");
      LevelWorkload.of(l).filter(LevelWorkload::isNotable)
          .ifPresent(w -> h.append("<p>workload: ").append(esc(w.describe())).append("</p>"));
      LevelDocuments.charts(l).values().forEach(svg -> h.append("<div>").append(stripXmlDeclaration(svg)).append("</div>"));
      h.append(distributionTable(l)).append("</details>");
    }
    return h.append("</body></html>").toString();
  }

  /** The charts that answer the sweep's question: throughput against load, and the deployments' Pareto front or latency. */
  static List<String> headlineCharts(Map<String, String> charts) {
    return Stream.of("throughput", charts.containsKey("pareto") ? "pareto" : "latency").filter(charts::containsKey).toList();
  }

  /**
   * The verdict's box, stated first: passed, failed or broken and why (the simulator named when it was the endpoint),
   * then the answer, the SLO outcome per level and what failed.
   */
  static String verdict(SweepVerdict verdict, SweepAnswer v) {
    StringBuilder h = new StringBuilder("<div class=\"verdict ").append(verdict.status().label()).append("\"><h2>Verdict: ")
        .append(verdict.status().label()).append("</h2>");
    if (!verdict.reasons().isEmpty()) {
      h.append("<ul class=\"failed\">");
      verdict.reasons().forEach(r -> h.append("<li>").append(esc(r)).append("</li>"));
      h.append("</ul>");
    }
    simulator(h, verdict.simulatorNote());
    h.append("<h3>Answer</h3><ul>");
    v.answer().forEach(a -> h.append("<li>").append(esc(a)).append("</li>"));
    h.append("</ul>");
    if (!v.slo().isEmpty()) {
      h.append("<ul>");
      v.slo().forEach(a -> h.append("<li>").append(esc(a)).append("</li>"));
      h.append("</ul>");
    }
    if (!v.failures().isEmpty()) {
      h.append("<p class=\"failed\">Failed requests:</p><ul class=\"failed\">");
      v.failures().forEach(a -> h.append("<li>").append(esc(a)).append("</li>"));
      h.append("</ul>");
    }
    return h.append("</div>").toString();
  }

  private static void simulator(StringBuilder h, Optional<String> note) {
    note.ifPresent(n -> h.append("<p class=\"simulator\">").append(esc(capitalisedFirst(n))).append(": its figures are a simulation's.</p>"));
  }

  private static String capitalisedFirst(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** What was measured: date, duration, server and version, model, deployment, client machine. */
  static String facts(SweepSummary summary) {
    StringBuilder h = new StringBuilder("<table class=\"facts\">");
    MeasuredFacts.of(summary).forEach((name, text) -> row(h, name, text));
    return h.append("</table>").toString();
  }

  /** The findings heaviest first; notes on the measurement ({@link SweepAnswer#minor}) folded under one line that counts them. */
  static String rankedFindings(List<Finding> findings) {
    List<Finding> ranked = SweepAnswer.ranked(findings);
    List<Finding> major = ranked.stream().filter(f -> !SweepAnswer.minor(f)).toList();
    List<Finding> minor = ranked.stream().filter(SweepAnswer::minor).toList();
    StringBuilder h = new StringBuilder(findings(major));
    if (!minor.isEmpty()) {
      String kinds = String.join(", ", minor.stream().map(f -> f.kind().label()).distinct().toList());
      h.append("<details class=\"minor\"><summary>").append(minor.size()).append(minor.size() == 1 ? " note" : " notes")
          .append(" on the measurement (").append(esc(kinds)).append(")</summary>")
          .append(findings(minor).replace("<h3>Findings</h3>", "")).append("</details>");
    }
    return h.toString();
  }

  /** One row per level, the console table's columns as HTML, so that the page wraps instead of scrolling. */
  static String levelTable(List<? extends SweepLevelResult> levels) {
    boolean slo = levels.stream().anyMatch(l -> !l.serviceLevels().isEmpty());
    StringBuilder h = new StringBuilder("<table class=\"levels\"><tr><th>level</th><th>ok / sent</th><th>failed</th>"
        + "<th>window (s)</th><th>output tok/s</th><th>E2E avg (s)</th><th>E2E p50 (s)</th><th>E2E p99 (s)</th>"
        + "<th>TTFT avg (s)</th><th>TTFT p99 (s)</th>");
    // TPOT and ITL as vllm bench serve prints them: "Mean TPOT (ms)", "Median ITL (ms)", "P99 ITL (ms)".
    for (String metric : List.of("TPOT", "ITL")) {
      for (String stat : List.of("Mean", "Median", "P99")) h.append("<th>").append(stat).append(' ').append(metric).append(" (ms)</th>");
    }
    if (slo) h.append("<th>SLO</th>");
    h.append("</tr>");
    for (SweepLevelResult l : levels) {
      h.append("<tr><td>").append(esc(l.label())).append("</td><td>").append(l.succeeded()).append(" / ")
          .append(l.requestCount()).append("</td><td").append(l.failed() > 0 ? " class=\"warn\"" : "").append(">")
          .append(l.failed()).append("</td><td>").append(String.format(Locale.ROOT, "%.1f", l.window().toNanos() / 1e9))
          .append("</td><td>").append(String.format(Locale.ROOT, "%.1f", l.outputThroughput().perSecond())).append("</td>");
      cell(h, l.e2eLatency().mean(), "");
      cell(h, l.e2eLatency().percentile(50), "");
      cell(h, l.e2eLatency().percentile(99), !l.e2eLatency().isEmpty() && !l.e2eLatency().supports(99) ? "*" : "");
      cell(h, l.ttft().mean(), "");
      cell(h, l.ttft().percentile(99), !l.ttft().isEmpty() && !l.ttft().supports(99) ? "*" : "");
      for (Distribution d : List.of(l.tpot(), l.itl())) {
        msCell(h, d.mean(), "");
        msCell(h, d.percentile(50), "");
        msCell(h, d.percentile(99), !d.isEmpty() && !d.supports(99) ? "*" : "");
      }
      if (slo) {
        boolean met = SloCheck.meets(l, l.serviceLevels());
        h.append("<td").append(met ? "" : " class=\"warn\"").append(">")
            .append(l.serviceLevels().isEmpty() ? "-" : met ? "met" : "missed").append("</td>");
      }
      h.append("</tr>");
    }
    h.append("</table>");
    if (levels.stream().anyMatch(l -> !l.e2eLatency().isEmpty() && !l.e2eLatency().supports(99))) {
      h.append("<p>* p99 of fewer than ").append(Distribution.samplesNeeded(99)).append(" requests is only their maximum.</p>");
    }
    return h.toString();
  }

  private static void msCell(StringBuilder h, Optional<Duration> value, String mark) {
    h.append("<td>").append(value.map(v -> String.format(Locale.ROOT, "%.1f", v.toNanos() / 1e6)).orElse("-"))
        .append(mark).append("</td>");
  }

  private static void cell(StringBuilder h, Optional<Duration> value, String mark) {
    h.append("<td>").append(value.map(v -> String.format(Locale.ROOT, "%.2f", v.toNanos() / 1e9)).orElse("-"))
        .append(mark).append("</td>");
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
      if (FindingText.sharesCauses(f, findings)) h.append("<div>").append(esc(FindingText.SAME_CAUSES)).append("</div>");
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

  /** The rows the registered features read off the level, those at {@code place}. */
  private static void readingRows(StringBuilder h, SweepLevelResult r, LevelReading.Place place) {
    Features.readings(place).forEach(reading -> reading.html(r).forEach(row -> row(h, row.name(), row.text())));
  }

  /** What the warm-up's requests asked: one value, or their range. */
  private static String warmupAsked(SweepLevelResult r, dev.llmbench.result.WarmupReport w) {
    return r instanceof MeasuredLevel m ? m.warmupMaxTokensAsked().map(Object::toString).orElse(Integer.toString(w.maxTokens()))
        : Integer.toString(w.maxTokens());
  }

  private static void row(StringBuilder h, String name, String value) {
    h.append("<tr><th>").append(esc(name)).append("</th><td>").append(esc(value)).append("</td></tr>");
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
