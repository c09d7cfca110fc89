package dev.llmbench.internal.report;

import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.format.Formats;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every sweep of the run on one page ({@code index.html} beside the sweeps' folders) and in the console's last lines:
 * each sweep's verdict, headline figures and a link to its page, the sweeps that did not pass first.
 */
final class RunOverview {

  /**
   * One sweep as the overview lists it.
   *
   * @param title    {@code Class.method}
   * @param folder   the sweep's folder name under the report root
   * @param verdict  its verdict
   * @param levels   how many levels ran
   * @param requests requests sent over all levels
   * @param failed   requests that failed
   * @param headline its peak output throughput with the level's latencies
   * @param answer   the first line of its page's answer
   * @param started  when it started
   */
  record Row(String title, String folder, SweepVerdict verdict, int levels, long requests, long failed, String headline,
      String answer, Instant started) {

    static Row of(SweepSummary s, String folder) {
      List<MeasuredLevel> levels = s.levels();
      long requests = levels.stream().mapToLong(MeasuredLevel::requestCount).sum();
      long failed = levels.stream().mapToLong(MeasuredLevel::failed).sum();
      // Embeddings produce no output tokens: their peak is in embedded texts per second (as their own table says).
      boolean embeddings = !levels.isEmpty() && levels.stream().allMatch(MeasuredLevel::isEmbeddings);
      Optional<MeasuredLevel> peak = levels.stream().filter(l -> l.succeeded() > 0).max(Comparator.comparingDouble(l ->
          embeddings ? l.inputThroughput().perSecond() : l.outputThroughput().perSecond()));
      String headline = peak.map(l -> (embeddings ? "peak " + l.inputThroughput() + " at " + l.label()
          : String.format(Locale.ROOT, "peak %.1f tok/s at %s", l.outputThroughput().perSecond(), l.label()))
          + l.ttft().percentile(50).map(t -> ", TTFT p50 " + Formats.duration(t)).orElse("")
          + l.tpot().percentile(50).map(t -> ", Median TPOT " + Formats.duration(t)).orElse("")).orElse("no request completed");
      List<String> answer = SweepAnswer.of(s).answer();
      return new Row(s.title(), folder, s.verdict(), levels.size(), requests, failed, headline,
          answer.isEmpty() ? "" : answer.get(0), s.started());
    }
  }

  private RunOverview() {}

  /** Broken first, then failed, then passed; run order within each. */
  static List<Row> ordered(List<Row> rows) {
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparingInt(r -> switch (r.verdict().status()) {
      case BROKEN -> 0;
      case FAILED -> 1;
      case PASSED -> 2;
    }));
    return sorted;
  }

  /** {@code 17 sweeps: 15 passed, 2 failed}. */
  static String count(List<Row> rows) {
    Map<SweepVerdict.Status, Integer> by = new TreeMap<>();
    rows.forEach(r -> by.merge(r.verdict().status(), 1, Integer::sum));
    List<String> parts = new ArrayList<>();
    by.forEach((status, n) -> parts.add(n + " " + status.label()));
    return rows.size() + (rows.size() == 1 ? " sweep: " : " sweeps: ") + String.join(", ", parts);
  }

  /** The console's last lines: the count, one line per sweep that did not pass (with why), and where the overview is. */
  static String console(List<Row> rows, Path page) {
    StringBuilder out = new StringBuilder("[llmbench] ").append(count(rows)).append('\n');
    for (Row r : ordered(rows)) {
      out.append("  ").append(String.format(Locale.ROOT, "%-6s", r.verdict().status().name())).append(' ').append(r.title())
          .append(": ").append(r.verdict().passed() ? r.headline() : String.join("; ", r.verdict().reasons()));
      r.verdict().simulator().ifPresent(p -> out.append(" [simulator]"));
      out.append('\n');
    }
    if (rows.stream().anyMatch(r -> r.verdict().simulator().isPresent())) {
      out.append("  [simulator]: measured on the embedded simulator, not a real server (set llmbench.base-url to measure one)\n");
    }
    return out.append("[llmbench] overview of every sweep: ").append(page.toAbsolutePath()).append('\n').toString();
  }

  /** The overview page: no scripts, the run's count first, then one row per sweep with a link to its page. */
  static String html(List<Row> rows) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>LLMBench: ")
        .append(HtmlSummary.esc(count(rows))).append("</title>").append(HtmlSummary.STYLE)
        // A row per sweep with its reasons and answer: the page takes the window's width.
        .append("<style>body{max-width:none}table.overview td:first-child{min-width:14em}table.overview td:nth-child(3),table.overview td:nth-child(7){min-width:18em}</style>")
        .append("</head><body>");
    boolean allPassed = rows.stream().allMatch(r -> r.verdict().passed());
    h.append("<h2>LLMBench run</h2><div class=\"verdict ").append(allPassed ? "passed" : "failed").append("\"><h2>")
        .append(HtmlSummary.esc(count(rows))).append("</h2>");
    if (rows.stream().anyMatch(r -> r.verdict().simulator().isPresent())) {
      h.append("<p class=\"simulator\">Sweeps marked simulator were measured on the embedded simulator, not a real server: "
          + "their figures are a simulation's.</p>");
    }
    h.append("</div><table class=\"facts\">");
    Instant first = rows.stream().map(Row::started).min(Comparator.naturalOrder()).orElse(Instant.now());
    h.append("<tr><th>date</th><td>").append(HtmlSummary.esc(MeasuredFacts.date(first))).append("</td></tr>");
    h.append("<tr><th>client machine</th><td>").append(HtmlSummary.esc(MeasuredFacts.clientMachine())).append("</td></tr>");
    h.append("</table><div style=\"overflow-x:auto\"><table class=\"overview\"><tr><th>sweep</th><th>verdict</th><th>why</th>"
        + "<th>levels</th><th>requests (failed)</th><th>headline</th><th>answer</th></tr>");
    for (Row r : ordered(rows)) {
      String status = r.verdict().status().label();
      h.append("<tr class=\"").append(status).append("\"><td><a href=\"").append(HtmlSummary.esc(r.folder()))
          .append("/index.html\">").append(HtmlSummary.esc(r.title()).replace(".", ".<wbr>")).append("</a></td><td class=\"")
          .append(r.verdict().passed() ? "" : "warn").append("\"><b>").append(status).append("</b>")
          .append(r.verdict().simulator().map(p -> "<br><span class=\"simulator\">simulator</span>").orElse(""))
          .append("</td><td>").append(HtmlSummary.esc(String.join("; ", r.verdict().reasons()))).append("</td><td>")
          .append(r.levels()).append("</td><td>").append(r.requests()).append(" (").append(r.failed()).append(")</td><td>")
          .append(HtmlSummary.esc(r.headline())).append("</td><td>").append(HtmlSummary.esc(r.answer())).append("</td></tr>");
    }
    return h.append("</table></div></body></html>").toString();
  }
}
