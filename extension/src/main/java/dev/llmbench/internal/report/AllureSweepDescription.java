package dev.llmbench.internal.report;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The description of a sweep's summary result in Allure: the table, the findings and the charts, in the
 * HTML Allure 3 keeps. It strips inline {@code <svg>} from descriptions but shows images, so each chart
 * is an {@code <img>} with a {@code data:} URI.
 */
final class AllureSweepDescription {

  private AllureSweepDescription() {}

  static String html(SweepSummary summary) {
    StringBuilder h = new StringBuilder("<p>").append(HtmlSummary.esc(summary.title())).append(": ")
        .append(summary.levels().size()).append(summary.levels().size() == 1 ? " level" : " levels").append(" on ")
        .append(HtmlSummary.esc(summary.levels().get(0).endpoint().toString()))
        .append(". Each level is a result of its own beside this one.</p>");
    summary.deployment().ifPresent(d -> h.append("<p>deployment: ").append(HtmlSummary.esc(d.describe())).append("</p>"));
    h.append("<pre>").append(HtmlSummary.esc(summary.table())).append("</pre>");
    h.append(HtmlSummary.findings(summary.findings()));
    if (!summary.conclusions().isEmpty()) {
      h.append("<ul>");
      summary.conclusions().forEach(c -> h.append("<li>").append(HtmlSummary.esc(c)).append("</li>"));
      h.append("</ul>");
    }
    summary.charts().forEach((name, svg) -> h.append("<p><img alt=\"chart: ").append(HtmlSummary.esc(name))
        .append("\" src=\"data:image/svg+xml;base64,")
        .append(Base64.getEncoder().encodeToString(svg.getBytes(StandardCharsets.UTF_8))).append("\"></p>"));
    return h.toString();
  }
}
