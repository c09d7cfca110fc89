package dev.llmbench.internal.report;

import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A level's documents, rendered once for every report that shows them. */
final class LevelDocuments {

  private LevelDocuments() {}

  /** The level's document, with what the sweep's features say of the level. */
  static String json(SweepRun sweep, MeasuredLevel level, ReportOptions options) {
    return level.memo().get("json " + options, () -> ResultJson.write(level, options, sweep.sections(level)));
  }

  static String csv(MeasuredLevel level) {
    return level.memo().get("csv", () -> ResultCsv.write(level));
  }

  /**
   * The level's own charts, file name suffix to SVG: {@code timeline} and {@code over-time}, where it has requests;
   * {@code input-lengths} and {@code output-lengths} (requested against actual) where it sends a dataset or drawn lengths.
   */
  static Map<String, String> charts(MeasuredLevel level) {
    return level.memo().get("charts", () -> {
      Map<String, String> charts = new LinkedHashMap<>();
      LevelCharts.timeline(level).ifPresent(svg -> charts.put("timeline", svg));
      LevelCharts.overTime(level).ifPresent(svg -> charts.put("over-time", svg));
      LevelWorkload.of(level).filter(LevelWorkload::isNotable).ifPresent(w -> {
        charts.put("input-lengths", SvgCharts.lengths(level.label() + ": input tokens", "Input tokens", w.requestedInput(),
            w.actualInput()));
        charts.put("output-lengths", SvgCharts.lengths(level.label() + ": output tokens", "Output tokens", w.requestedOutput(),
            w.actualOutput()));
      });
      return Collections.unmodifiableMap(charts);
    });
  }

  static String html(SweepRun sweep, MeasuredLevel level) {
    return level.memo().get("html", () -> HtmlSummary.level(level, sweep.sections(level)));
  }
}
