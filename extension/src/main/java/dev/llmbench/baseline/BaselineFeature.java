package dev.llmbench.baseline;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Delta;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The baseline of a sweep with a {@code @Baseline} (or a vLLM reference): compares each level with it, says
 * so in every report through its {@link FeatureSection}s (the deltas as JSON, a line under the table, a table
 * on the pages, the comparison as an Allure attachment, the sweep's statement), and fails a level that
 * regressed when the plan gates on it.
 */
final class BaselineFeature implements SweepFeature {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final BaselinePlan plan;

  public BaselineFeature(BaselinePlan plan) {
    this.plan = plan;
  }

  /** The feature among a sweep's, if it has a baseline. */
  public static Optional<BaselineFeature> of(SweepRun sweep) {
    return sweep.features().stream().filter(BaselineFeature.class::isInstance).map(BaselineFeature.class::cast).findFirst();
  }

  @Override
  public String key() {
    return "baseline";
  }

  public BaselinePlan plan() {
    return plan;
  }

  /** The level against the baseline, computed once per level; empty when there is nothing to compare with yet. */
  public Optional<BaselineComparison> comparison(MeasuredLevel level) {
    return level.memo().get(new ComparisonKey(this), () -> plan.compare(level));
  }

  private record ComparisonKey(BaselineFeature feature) {}

  /** The level's comparison for its test method, or one without deltas saying why there is none yet. */
  @Override
  public Map<Class<?>, Object> parameters(SweepRun sweep, MeasuredLevel level) {
    return Map.of(BaselineComparison.class, comparison(level).orElseGet(() -> new BaselineComparison(
        "no baseline yet: this run is saved as " + plan.file(), level.label(), 0, List.of())));
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    return comparison(level).map(c -> FeatureSection.titled("vs baseline").withJson(json(c)).withConsole(List.of(line(level, c)))
        .withHtml(table(List.of(level))).withAttachments(List.of(FeatureSection.Attachment.text(level.label() + " vs baseline",
            c.report()))).withViolations(violations(c)));
  }

  /** Saves the sweep as its baseline, when the plan says so. */
  @Override
  public void ended(SweepRun sweep, List<MeasuredLevel> levels) {
    if (plan.save()) BaselineFile.write(plan.file(), sweep.id(), levels);
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    FeatureSection section = FeatureSection.titled("against the baseline").withFindings(List.of(statement(levels)));
    return Optional.of(levels.stream().anyMatch(l -> comparison(l).isPresent()) ? section.withHtml(table(levels)) : section);
  }

  /** Why the level fails: every regressed figure, when the plan gates on the baseline; empty when it passes. */
  List<String> violations(BaselineComparison comparison) {
    List<Delta> regressed = comparison.regressions();
    if (!plan.gate() || regressed.isEmpty()) return List.of();
    List<String> lines = new ArrayList<>();
    regressed.forEach(d -> lines.add("  - " + d));
    return List.of(comparison.level() + ": " + regressed.size() + " figure(s) regressed against the baseline, "
        + "worse beyond noise and by more than " + Formats.percent(comparison.maxRegression()) + ":\n"
        + String.join("\n", lines) + "\n  baseline: " + comparison.source()
        + (plan.reference().map(r -> r.byLabel().isEmpty()).orElse(true) ? ""
            : "\n  if the change is intended, save a new baseline with -Dllmbench.baseline.save=true"));
  }

  /** A line for the sweep's conclusions: what the baseline did this run. */
  String statement(List<MeasuredLevel> levels) {
    if (plan.reference().isEmpty()) return "baseline: this run is saved as " + plan.file();
    long compared = levels.stream().filter(l -> comparison(l).filter(c -> !c.isEmpty()).isPresent()).count();
    List<String> regressed = new ArrayList<>();
    int worse = 0;
    for (MeasuredLevel l : levels) {
      Optional<BaselineComparison> c = comparison(l);
      if (c.isEmpty()) continue;
      c.get().regressions().forEach(d -> regressed.add(l.label() + " " + d.figure() + " "
          + String.format(Locale.ROOT, "%+.1f%%", d.change().estimate() * 100)));
      worse += (int) c.get().deltas().stream().filter(d -> d.verdict() == Delta.Verdict.WORSE).count();
    }
    String s = "baseline " + plan.reference().get().source() + ": " + compared + " of " + levels.size() + " levels compared; ";
    s += regressed.isEmpty() ? "no figure regressed beyond noise and " + Formats.percent(plan.maxRegression())
        : regressed.size() + " regressed (" + String.join(", ", regressed) + ")";
    if (worse > 0) s += "; " + worse + " figure(s) worse beyond noise but within " + Formats.percent(plan.maxRegression());
    return s + (plan.save() ? "; this run is saved as the new baseline" : "");
  }

  /**
   * The level's deltas, one line under the table: {@code C= 1 | vs baseline: output throughput -16.7%
   * [-18.0%, -15.4%] regressed, ...}.
   */
  static String line(MeasuredLevel level, BaselineComparison c) {
    return ByDeployment.rowLabel(level) + " | vs baseline: " + (c.isEmpty() ? "no such level in it" : "")
        + c.deltas().stream().map(BaselineFeature::compact).collect(Collectors.joining(", "));
  }

  /** {@code TTFT p50 +20.1% [+18.3%, +21.9%] regressed}. */
  static String compact(Delta d) {
    return String.format(Locale.ROOT, "%s %+.1f%% [%+.1f%%, %+.1f%%] %s", d.figure(), d.change().estimate() * 100,
        d.change().lower() * 100, d.change().upper() * 100, d.verdict().name().toLowerCase(Locale.ROOT));
  }

  /** The level's deltas against its baseline: each figure's values, change, 95% interval of the change and verdict. */
  static ObjectNode json(BaselineComparison c) {
    ObjectNode node = JSON.createObjectNode();
    node.put("source", c.source());
    node.put("max_regression", c.maxRegression());
    ArrayNode deltas = node.putArray("deltas");
    for (Delta d : c.deltas()) {
      ObjectNode n = deltas.addObject();
      n.put("figure", d.figure());
      n.put("metric", d.metric().key());
      d.percentile().ifPresent(p -> n.put("percentile", p));
      n.put("unit", d.metric().unit());
      n.put("baseline", d.reference());
      n.put("current", d.current());
      n.put("change", d.change().estimate());
      n.put("change_ci95_lower", d.change().lower());
      n.put("change_ci95_upper", d.change().upper());
      n.put("verdict", d.verdict().name());
    }
    return node;
  }

  /** Every compared level's deltas against its baseline, one row per figure. */
  String table(List<MeasuredLevel> levels) {
    StringBuilder h = new StringBuilder("<h3>Against the baseline</h3><table><tr><th>level</th><th>figure</th><th>baseline</th>"
        + "<th>now</th><th>change</th><th>95% CI of the change</th><th>verdict</th></tr>");
    for (MeasuredLevel l : levels) {
      comparison(l).ifPresent(c -> {
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

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
