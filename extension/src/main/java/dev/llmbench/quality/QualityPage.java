package dev.llmbench.quality;

import dev.llmbench.result.ServiceLevels;
import dev.llmbench.Metric;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.compare.Changes;
import dev.llmbench.internal.compare.ComparisonSide;
import dev.llmbench.internal.compare.Figure;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one page of the decision: per deployment and load, accuracy beside output throughput and goodput under
 * the SLO, each deployment against the reference item by item, whether accuracy holds as load rises, and a
 * chart of accuracy against throughput with its frontier.
 */
final class QualityPage {

  private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  private static final int FLIPS_SHOWN = 50;

  private final QualityFeature feature;
  private final List<MeasuredLevel> levels;
  private final List<Row> rows = new ArrayList<>();
  private final ServiceLevels slo;
  private final String title;

  /** One level on the page. */
  private record Row(MeasuredLevel level, String deployment, String load, LevelGrading grading, Accuracy accuracy,
      double throughput, Optional<Double> goodput, Optional<QualityComparison> vs) {}

  /** @param title the sweep's, which the chart's title starts with as the sweep's other charts' do */
  QualityPage(QualityFeature feature, String title, List<MeasuredLevel> levels) {
    this.feature = feature;
    this.title = title;
    this.levels = List.copyOf(levels);
    this.slo = levels.get(0).serviceLevels();
    for (MeasuredLevel l : levels) {
      String d = ByDeployment.name(l);
      String load = ByDeployment.load(l);
      Optional<QualityComparison> vs = d.equals(feature.reference()) ? Optional.empty()
          : feature.at(levels, load).compare(d, feature.reference());
      Optional<Double> goodput = slo.isEmpty() ? Optional.empty() : Optional.of(l.goodput().perSecond());
      rows.add(new Row(l, d, load, feature.grading(l), feature.grading(l).accuracy(), l.outputThroughput().perSecond(), goodput,
          vs));
    }
  }

  private boolean several() {
    return rows.stream().map(Row::deployment).distinct().count() > 1;
  }

  private String who(Row r) {
    return r.deployment().isEmpty() ? r.load() : r.deployment() + " at " + r.load();
  }

  /** The rows no other row beats on both accuracy and output throughput, by rising throughput. */
  List<MeasuredLevel> frontier() {
    List<Row> on = new ArrayList<>();
    for (Row a : rows) {
      boolean dominated = rows.stream().anyMatch(b -> b != a && b.accuracy().value() >= a.accuracy().value()
          && b.throughput() >= a.throughput() && (b.accuracy().value() > a.accuracy().value() || b.throughput() > a.throughput()));
      if (!dominated) on.add(a);
    }
    on.sort((x, y) -> Double.compare(x.throughput(), y.throughput()));
    return on.stream().map(Row::level).toList();
  }

  List<String> console() {
    List<String> lines = new ArrayList<>();
    lines.add("quality and speed: " + feature.plan().set().name() + ", " + feature.plan().set().size() + " items"
        + (several() ? "; reference " + feature.reference() : "") + (slo.isEmpty() ? "" : "; SLO " + slo));
    for (Row r : rows) {
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s | accuracy %s | %.0f tok/s", r.level().label(),
          r.accuracy(), r.throughput()));
      r.goodput().ifPresent(g -> s.append(String.format(Locale.ROOT, " | goodput %.1f req/s%s", g,
          SloCheck.meets(r.level(), slo) ? "" : " (misses the SLO)")));
      r.vs().ifPresent(c -> s.append(" | vs ").append(c.reference()).append(": ").append(comparisonLine(c)));
      lines.add(s.toString());
    }
    // The frontier is a conclusion (findings()), which the table prints after these lines: said once, there.
    lines.addAll(loadChecks());
    return lines;
  }

  static String comparisonLine(QualityComparison c) {
    return String.format(Locale.ROOT, "recovery %.1f%% [%.1f%%, %.1f%%], difference %+.1f points [%+.1f, %+.1f], %d lost, "
        + "%d gained of %d (McNemar p = %.2g)%s", 100 * c.recovery().estimate(), 100 * c.recovery().lower(),
        100 * c.recovery().upper(), 100 * c.difference().estimate(), 100 * c.difference().lower(), 100 * c.difference().upper(),
        c.onlyReference(), c.onlyCandidate(), c.pairs(), c.mcNemarP(), c.worseBeyondNoise() ? ": worse beyond noise"
            : c.betterBeyondNoise() ? ": better beyond noise" : ": no difference beyond noise");
  }

  /**
   * Accuracy under load is a serving check: each deployment's lightest load against its heaviest, item by item
   * (AIPerf notes that accuracy falling with concurrency is a serving fault, not a property of the model).
   */
  List<String> loadChecks() {
    List<String> out = new ArrayList<>();
    Map<String, List<Row>> by = new LinkedHashMap<>();
    rows.forEach(r -> by.computeIfAbsent(r.deployment(), k -> new ArrayList<>()).add(r));
    by.forEach((d, rs) -> {
      if (rs.size() < 2) return;
      Row light = rs.get(0);
      Row heavy = rs.get(rs.size() - 1);
      QualityComparison c = Pairing.compare(heavy.load(), heavy.grading(), light.load(), light.grading());
      String who = d.isEmpty() ? "accuracy" : d + "'s accuracy";
      // Over the items graded at both loads, as the counts of items lost and gained are.
      String figures = String.format(Locale.ROOT, "%.1f%% at %s, %.1f%% at %s on the %d items graded at both (%d items lost, "
          + "%d gained, McNemar p = %.2g)", 100 * c.referenceAccuracy(), light.load(), 100 * c.candidateAccuracy(), heavy.load(),
          c.pairs(), c.onlyReference(), c.onlyCandidate(), c.mcNemarP());
      if (c.worseBeyondNoise()) {
        out.add(who + " falls under load: " + figures + ": the same questions answered worse under load point to the serving "
            + "(batching, KV cache, preemption, numerics of large batches), not the model");
      } else if (c.onlyReference() > c.onlyCandidate()) {
        // A drop the test cannot tell from chance (every flip one way with p = 0.06, say) is not accuracy that holds.
        out.add(who + " shows no drop beyond noise under load: " + figures);
      } else {
        out.add(who + " holds under load: " + figures);
      }
    });
    return out;
  }

  List<String> findings() {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      r.vs().ifPresent(c -> {
        String speed = "";
        Optional<Row> ref = rows.stream().filter(x -> x.deployment().equals(c.reference()) && x.load().equals(r.load())).findFirst();
        if (ref.isPresent() && ref.get().throughput() > 0) {
          // Each ratio with its interval: two servers of the same speed read 1.15x apart on a busy machine.
          speed = Changes.delta(ComparisonSide.of(ref.get().level()), ComparisonSide.of(r.level()),
              Figure.of(Metric.OUTPUT_THROUGHPUT), 0).map(d -> " at " + ratio(d.change()) + " its output throughput").orElse("");
          if (r.goodput().isPresent() && ref.get().goodput().orElse(0.0) > 0) {
            speed += " and " + ratio(QualityStats.goodputRatio(ref.get().level(), r.level())) + " its goodput";
          }
        }
        // The accuracies beside the recovery are over the same paired items as it is, so the three agree.
        out.add(String.format(Locale.ROOT, "[%s] %s recovers %.1f%% [%.1f%%, %.1f%%] of %s's accuracy (%.1f%% against %.1f%% "
            + "on the %d items graded on both; %d items lost, %d gained, McNemar p = %.2g)%s", r.load(), r.deployment(),
            100 * c.recovery().estimate(), 100 * c.recovery().lower(), 100 * c.recovery().upper(), c.reference(),
            100 * c.candidateAccuracy(), 100 * c.referenceAccuracy(), c.pairs(), c.onlyReference(), c.onlyCandidate(),
            c.mcNemarP(), speed));
      });
    }
    out.addAll(loadChecks().stream().filter(s -> s.contains("falls under load")).toList());
    out.add("accuracy-throughput frontier (no level both more accurate and faster): " + String.join(", ", frontier().stream().map(l -> who(rows.stream()
        .filter(r -> r.level() == l).findFirst().orElseThrow())).toList()));
    return out;
  }

  /** A change as a ratio with its 95% interval: {@code 1.15x [0.98x, 1.34x]}. */
  static String ratio(ConfidenceInterval change) {
    return String.format(Locale.ROOT, "%.2fx [%.2fx, %.2fx]", 1 + change.estimate(), 1 + change.lower(), 1 + change.upper());
  }

  ObjectNode json() {
    ObjectNode o = QualityFeature.JSON.createObjectNode();
    o.put("eval", feature.plan().set().name()).put("items", feature.plan().set().size()).put("reference", feature.reference());
    ArrayNode ls = o.putArray("levels");
    List<MeasuredLevel> frontier = frontier();
    for (Row r : rows) {
      ObjectNode n = ls.addObject();
      n.put("level", r.level().label()).put("deployment", r.deployment()).put("load", r.load());
      QualityFeature.accuracyJson(n.putObject("accuracy"), r.accuracy());
      n.put("output_throughput", r.throughput());
      r.goodput().ifPresent(g -> n.put("request_goodput", g).put("meets_slo", SloCheck.meets(r.level(), slo)));
      n.put("on_frontier", frontier.contains(r.level()));
      r.vs().ifPresent(c -> QualityFeature.comparisonJson(n.putObject(QualityFeature.VS_REFERENCE), c));
    }
    ArrayNode checks = o.putArray("load_checks");
    loadChecks().forEach(checks::add);
    return o;
  }

  List<FeatureSection.Attachment> attachments() {
    return List.of(new FeatureSection.Attachment("quality", "image/svg+xml", "svg", svg().getBytes(StandardCharsets.UTF_8)),
        new FeatureSection.Attachment("quality-items", "application/json", "json", items().getBytes(StandardCharsets.UTF_8)));
  }

  /** Every item's verdict at every level, for audit. */
  private String items() {
    ObjectNode o = QualityFeature.JSON.createObjectNode();
    for (Row r : rows) {
      ArrayNode a = o.putArray(r.level().label());
      r.grading().outcomes().values().forEach(x -> {
        ObjectNode n = a.addObject().put("id", x.item().id());
        n.put("verdict", x.graded().map(g -> g.verdict().label()).orElse("failed"));
        x.graded().ifPresent(g -> n.put("answer", g.answer()));
        n.put("expected", x.item().grader().expected()).put("reply", x.reply());
      });
    }
    return o.toPrettyString();
  }

  static String levelHtml(String label, String set, Accuracy a, Map<String, Accuracy> byGrader, Optional<QualityComparison> vs) {
    StringBuilder s = new StringBuilder("<p class=\"quality\">quality (").append(esc(set)).append("): accuracy ")
        .append(esc(a.toString()));
    vs.ifPresent(c -> s.append("; vs ").append(esc(c.reference())).append(": ").append(esc(comparisonLine(c))));
    s.append("</p>");
    if (byGrader.size() > 1) {
      s.append("<table><tr><th>grader</th><th>correct</th><th>wrong</th><th>unparsed</th><th>accuracy</th></tr>");
      byGrader.forEach((g, ga) -> s.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td>"
          + "<td>%.1f%%</td></tr>", esc(g), ga.correct(), ga.wrong(), ga.unparsed(), 100 * ga.value())));
      s.append("</table>");
    }
    return s.toString();
  }

  /**
   * The decision, for the top of the sweep's page: a row per deployment and load with accuracy and its interval,
   * the counts, throughput, goodput under the SLO and the comparison with the reference (recovery, difference, the
   * items that flipped); the chart of accuracy against throughput; the load checks; the flipped items folded.
   */
  String html() {
    boolean several = several();
    StringBuilder s = new StringBuilder("<section class=\"quality\"><h3>Quality and speed</h3><p>")
        .append(esc(feature.plan().set().name())).append(", ").append(feature.plan().set().size()).append(" items")
        .append(several ? ", each deployment against " + esc(feature.reference()) + " on the same items" : "")
        .append(slo.isEmpty() ? "" : "; SLO " + esc(slo.toString())).append("</p>");
    // Few columns, so that each table fits a narrow pane (Allure's) without hiding any.
    s.append("<table><tr><th>level</th><th>accuracy (95% Wilson)</th><th>correct / wrong /<br>unparsed / failed</th>"
        + "<th>output tok/s</th>").append(slo.isEmpty() ? "" : "<th>goodput req/s<br>under the SLO</th>").append("</tr>");
    List<MeasuredLevel> frontier = frontier();
    for (Row r : rows) {
      Accuracy a = r.accuracy();
      s.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%s</td><td>%d / %d / %d / %d</td><td>%.0f</td>",
          unbroken(esc(r.level().label()) + (frontier.contains(r.level()) ? " ◆" : "")), unbroken(String.format(Locale.ROOT,
              "%.1f%% [%.1f%%, %.1f%%]", 100 * a.value(), 100 * a.interval().lower(), 100 * a.interval().upper())),
          a.correct(), a.wrong(), a.unparsed(), a.failed(), r.throughput()));
      r.goodput().ifPresent(g -> s.append(String.format(Locale.ROOT, "<td>%.1f%s</td>", g,
          SloCheck.meets(r.level(), slo) ? "" : " (misses)")));
      s.append("</tr>");
    }
    s.append("</table><p>◆ on the accuracy-throughput frontier: no other level both more accurate and faster.</p>");
    if (several) {
      s.append("<table><tr><th>against ").append(esc(feature.reference())).append(",<br>item by item</th>")
          .append("<th>recovery (95%)</th><th>difference,<br>points (95%)</th><th>items flipped (McNemar p)</th></tr>");
      for (Row r : rows) {
        r.vs().ifPresent(c -> s.append("<tr><td>").append(unbroken(esc(r.level().label()))).append("</td>")
            .append(comparisonCells(c)).append("</tr>"));
      }
      s.append("</table>");
    }
    String chart = svg();
    s.append("<div>").append(chart.substring(chart.indexOf("<svg"))).append("</div>");
    for (String check : loadChecks()) s.append("<p>").append(esc(check)).append("</p>");
    for (Row r : rows) {
      if (r.vs().isEmpty()) continue;
      QualityComparison c = r.vs().get();
      if (c.lost().isEmpty() && c.gained().isEmpty()) continue;
      Row ref = rows.stream().filter(x -> x.deployment().equals(c.reference()) && x.load().equals(r.load())).findFirst()
          .orElseThrow();
      s.append("<details><summary>").append(esc(r.load())).append(": items that flipped between ").append(esc(c.reference()))
          .append(" and ").append(esc(r.deployment())).append(" (").append(c.onlyReference()).append(" lost, ")
          .append(c.onlyCandidate()).append(" gained)</summary><table><tr><th>item</th><th>flip</th><th>expected</th><th>")
          .append(esc(c.reference())).append("</th><th>").append(esc(r.deployment())).append("</th></tr>");
      int shown = 0;
      for (Map.Entry<Integer, LevelGrading.Outcome> e : r.grading().outcomes().entrySet()) {
        LevelGrading.Outcome mine = e.getValue();
        LevelGrading.Outcome theirs = ref.grading().outcomes().get(e.getKey());
        if (theirs == null || mine.graded().isEmpty() || theirs.graded().isEmpty() || mine.correct() == theirs.correct()) continue;
        if (shown++ == FLIPS_SHOWN) {
          s.append("<tr><td colspan=\"5\">... and more in quality-items.json</td></tr>");
          break;
        }
        s.append("<tr><td>").append(esc(mine.item().id())).append("</td><td>").append(mine.correct() ? "gained" : "lost")
            .append("</td><td>").append(esc(mine.item().grader().expected())).append("</td><td>")
            .append(esc(theirs.graded().get().verdict().label() + ": " + theirs.graded().get().answer())).append("</td><td>")
            .append(esc(mine.graded().get().verdict().label() + ": " + mine.graded().get().answer())).append("</td></tr>");
      }
      s.append("</table></details>");
    }
    return s.append("</section>").toString();
  }

  /** Accuracy against output throughput, a point per level with its interval, the frontier dashed ({@link QualityChart}). */
  String svg() {
    List<MeasuredLevel> frontier = frontier();
    List<QualityChart.Point> points = rows.stream().map(QualityPage::point).toList();
    List<QualityChart.Point> on = frontier.stream().map(l -> point(rows.stream().filter(r -> r.level() == l).findFirst()
        .orElseThrow())).toList();
    return QualityChart.of(title, points, on);
  }

  private static QualityChart.Point point(Row r) {
    Accuracy a = r.accuracy();
    return new QualityChart.Point(r.deployment(), r.load(), r.throughput(), a.value(), a.interval().lower(),
        a.interval().upper());
  }

  /** Recovery and difference with their intervals, the items lost and gained, McNemar's p and what they say, as cells. */
  private static String comparisonCells(QualityComparison c) {
    return "<td>" + unbroken(String.format(Locale.ROOT, "%.1f%% [%.1f%%, %.1f%%]", 100 * c.recovery().estimate(),
        100 * c.recovery().lower(), 100 * c.recovery().upper())) + "</td><td>" + unbroken(String.format(Locale.ROOT,
        "%+.1f [%+.1f, %+.1f]", 100 * c.difference().estimate(), 100 * c.difference().lower(), 100 * c.difference().upper()))
        + String.format(Locale.ROOT, "</td><td>%d lost, %d gained (p = %.2g):<br>%s</td>", c.onlyReference(), c.onlyCandidate(),
        c.mcNemarP(), c.worseBeyondNoise() ? "worse beyond noise" : c.betterBeyondNoise() ? "better beyond noise"
            : "no difference beyond noise");
  }

  /** A cell's figure kept on one line (a label, an estimate with its interval), so that the wide table wraps prose only. */
  private static String unbroken(String escaped) {
    return escaped.replace(" ", "&nbsp;");
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
