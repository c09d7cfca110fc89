package dev.llmbench.internal.report;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The description of a sweep's summary result in Allure: the verdict, the findings, the table and the charts, in the
 * HTML Allure 3 keeps. It strips inline {@code <svg>} from descriptions but shows images, so each chart
 * is an {@code <img>} with a {@code data:} URI.
 */
final class AllureSweepDescription {

  private static final Pattern INLINE_SVG = Pattern.compile("<svg[\\s>].*?</svg>", Pattern.DOTALL);

  private AllureSweepDescription() {}

  /**
   * Verdict first, as the HTML page: the verdict and the answer, what was measured, the features' leads, the headline
   * charts, the findings, the table, the other charts.
   */
  static String html(SweepSummary summary) {
    StringBuilder h = new StringBuilder(HtmlSummary.verdict(summary.verdict(), SweepAnswer.of(summary)));
    h.append("<p>").append(HtmlSummary.esc(summary.title())).append(": ")
        .append(summary.levels().size()).append(summary.levels().size() == 1 ? " level" : " levels")
        .append(". Each level is a result of its own beside this one, with its timeline.</p>");
    h.append(HtmlSummary.facts(summary));
    summary.sections().forEach(f -> f.lead().ifPresent(lead -> h.append(inlineSvgAsImages(lead))));
    List<String> headline = HtmlSummary.headlineCharts(summary.charts());
    headline.forEach(name -> image(h, name, summary.charts().get(name)));
    h.append(HtmlSummary.rankedFindings(summary.findings()));
    h.append(HtmlSummary.levelTable(summary.levels()));
    h.append("<details><summary>the table as the console prints it</summary><pre>").append(HtmlSummary.esc(summary.table()))
        .append("</pre></details>");
    summary.charts().forEach((name, svg) -> {
      if (!headline.contains(name)) image(h, name, svg);
    });
    // Allure keeps a cell on one line: a table wider than its pane scrolls instead of losing its right-hand columns.
    return h.toString().replace("<table", "<div style=\"overflow-x:auto\"><table").replace("</table>", "</table></div>");
  }

  /** A feature's fragment with each inline {@code <svg>} as an image, which Allure keeps. */
  static String inlineSvgAsImages(String fragment) {
    return INLINE_SVG.matcher(fragment).replaceAll(svg -> {
      StringBuilder img = new StringBuilder();
      image(img, "chart", svg.group());
      return Matcher.quoteReplacement(img.toString());
    });
  }

  private static void image(StringBuilder h, String name, String svg) {
    h.append("<p><img alt=\"chart: ").append(HtmlSummary.esc(name)).append("\" src=\"data:image/svg+xml;base64,")
        .append(Base64.getEncoder().encodeToString(svg.getBytes(StandardCharsets.UTF_8))).append("\"></p>");
  }
}
