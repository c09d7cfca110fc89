package dev.llmbench.internal.report;

import dev.llmbench.internal.core.MeasuredLevel;

/** A level's documents, rendered once for every report that shows them. */
final class LevelDocuments {

  private LevelDocuments() {}

  static String json(MeasuredLevel level, ReportOptions options) {
    return level.memo().get("json " + options, () -> ResultJson.write(level, options));
  }

  static String csv(MeasuredLevel level) {
    return level.memo().get("csv", () -> ResultCsv.write(level));
  }

  static String html(MeasuredLevel level) {
    return level.memo().get("html", () -> HtmlSummary.level(level));
  }
}
