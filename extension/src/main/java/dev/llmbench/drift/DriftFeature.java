package dev.llmbench.drift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.StopReason;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Drift of a sweep with {@code @Drift}: each level's replies kept by prompt; the reference's written to the sweep's folder
 * as soon as they are measured; each candidate's compared with them at the same load, in every report through its
 * {@link FeatureSection}s; a level whose replies came without the logprobs asked for fails, loudly.
 */
final class DriftFeature implements SweepFeature {

  static final ObjectMapper JSON = new ObjectMapper();

  private final DriftPlan plan;
  private final List<String> deployments;
  private final String reference;
  private final Path folder;

  /**
   * @param deployments the sweep's deployments, in the order declared
   * @param folder      the sweep's folder, where the reference's replies are kept
   */
  DriftFeature(DriftPlan plan, List<String> deployments, Path folder) {
    this.plan = plan;
    this.deployments = List.copyOf(deployments);
    this.reference = plan.reference().isBlank() ? deployments.get(0) : plan.reference();
    this.folder = folder;
  }

  @Override
  public String key() {
    return "drift";
  }

  /** Prompts the level's request indices wrap at: this check's own, or none where an eval brings them (each item once). */
  private int promptCount(MeasuredLevel level) {
    return level.plan().workload().prompts().name().equals(plan.name()) ? plan.prompts().size() : Integer.MAX_VALUE;
  }

  /**
   * The level's replies, once per level: a level measured now has them in its requests; a level reused from an earlier
   * run (a resumed matrix's candidate) has them only where that run kept them, in the candidate's folder beside the
   * matrix's ledger. The reference's are also kept in the sweep's folder as they are first read.
   */
  Optional<LevelReplies> replies(SweepRun sweep, MeasuredLevel level) {
    return level.memo().get(new RepliesKey(this), () -> {
      String name = ByDeployment.name(level);
      String load = ByDeployment.load(level);
      Optional<LevelReplies> r = sweep.reused(level)
          ? sweep.keptFolder(name).flatMap(f -> ReferenceFile.read(ReferenceFile.kept(f, load), plan.identity()))
          : Optional.of(LevelReplies.of(level, promptCount(level), plan.topLogprobs() > 0));
      if (name.equals(reference)) {
        r.ifPresent(replies -> ReferenceFile.write(ReferenceFile.of(folder, reference, load), plan.identity(), replies));
      }
      return r;
    });
  }

  private record RepliesKey(DriftFeature feature) {}

  /**
   * Each deployment's replies kept beside the matrix's ledger as its level ends (where the deployment has such a
   * folder: a launched candidate), so that a run resumed after a crash compares with a reused reference, and reports a
   * reused candidate's drift again. A reused level's are already there; a level a JVM's shutdown cut short is not kept.
   */
  @Override
  public void measured(SweepRun sweep, MeasuredLevel level) {
    if (sweep.reused(level) || level.stopReason() == StopReason.INTERRUPTED) return;
    sweep.keptFolder(ByDeployment.name(level)).ifPresent(f -> replies(sweep, level).ifPresent(
        r -> ReferenceFile.write(ReferenceFile.kept(f, ByDeployment.load(level)), plan.identity(), r)));
  }

  /** The reference's replies at {@code load}: its level in this run (measured or reused), else the ones an earlier run kept. */
  private Optional<LevelReplies> referenceAt(SweepRun sweep, List<MeasuredLevel> levels, String load) {
    for (MeasuredLevel l : levels) {
      if (ByDeployment.load(l).equals(load) && ByDeployment.name(l).equals(reference)) {
        Optional<LevelReplies> r = replies(sweep, l);
        if (r.isPresent()) return r;
      }
    }
    return ReferenceFile.read(ReferenceFile.of(folder, reference, load), plan.identity());
  }

  Optional<DriftComparison> compare(SweepRun sweep, List<MeasuredLevel> levels, MeasuredLevel level) {
    String name = ByDeployment.name(level);
    if (name.equals(reference)) return Optional.empty();
    String load = ByDeployment.load(level);
    Optional<LevelReplies> mine = replies(sweep, level);
    if (mine.isEmpty()) return Optional.empty();
    return referenceAt(sweep, levels, load).map(r -> DriftStats.compare(name, mine.get(), reference, r, load));
  }

  @Override
  public Map<Class<?>, Object> parameters(SweepRun sweep, MeasuredLevel level) {
    String load = ByDeployment.load(level);
    Map<String, DriftComparison> found = new LinkedHashMap<>();
    for (String d : deployments) {
      for (MeasuredLevel l : sweep.levels()) {
        if (ByDeployment.name(l).equals(d) && ByDeployment.load(l).equals(load)) compare(sweep, sweep.levels(), l).ifPresent(c -> found.put(d, c));
      }
    }
    return Map.of(Drifts.class, new At(load, reference, found));
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    Optional<LevelReplies> kept = replies(sweep, level);
    if (kept.isEmpty()) {
      String said = level.label() + " | drift: reused from an earlier run that kept none of its replies at "
          + ByDeployment.load(level) + ", so it is not compared; measure it again to compare it";
      return Optional.of(FeatureSection.titled("drift").withJson(JSON.createObjectNode().put("prompts", plan.name())
          .put("reference", reference).put("role", ByDeployment.name(level).equals(reference) ? "reference" : "candidate")
          .put("replies_kept", false)).withConsole(List.of(said)).withHtml("<p class=\"drift\">" + esc(said) + "</p>"));
    }
    LevelReplies r = kept.get();
    List<MeasuredLevel> known = new ArrayList<>(sweep.levels());
    if (!known.contains(level)) known.add(level);
    ObjectNode json = JSON.createObjectNode().put("prompts", plan.name()).put("reference", reference)
        .put("replies", r.replies().size()).put("failed", r.failed());
    List<String> console = new ArrayList<>();
    List<String> violations = new ArrayList<>();
    String html;
    if (ByDeployment.name(level).equals(reference)) {
      json.put("role", "reference");
      console.add(level.label() + " | drift: the reference, " + r.replies().size() + " replies kept");
      html = "<p class=\"drift\">drift: the reference (" + esc(plan.name()) + ", " + r.replies().size() + " replies)</p>";
    } else {
      json.put("role", "candidate");
      Optional<DriftComparison> c = compare(sweep, known, level);
      if (c.isPresent()) {
        figuresJson(json.putObject("vs_" + reference), c.get());
        console.add(level.label() + " | drift vs " + reference + ": " + line(c.get()));
        html = "<p class=\"drift\">drift vs " + esc(reference) + ": " + esc(line(c.get())) + "</p>";
      } else {
        console.add(level.label() + " | drift: no reference replies at " + ByDeployment.load(level) + " (" + reference
            + " is not measured at this load, and no earlier run kept its replies)");
        html = "<p class=\"drift\">drift: no reference replies at this load</p>";
      }
    }
    if (r.unscored() > 0) {
      violations.add(level.label() + ": @Drift asked for logprobs (top_logprobs " + plan.topLogprobs() + "), but " + r.unscored()
          + " of " + (r.replies().size()) + " replies came without them, so top-1 agreement and KL divergence cannot be "
          + "measured; serve with logprobs (vLLM: --max-logprobs " + plan.topLogprobs() + " or more), or set "
          + "@Drift(topLogprobs = 0) to compare tokens as the stream's chunks");
    }
    return Optional.of(FeatureSection.titled("drift").withJson(json).withConsole(console).withHtml(html)
        .withViolations(violations));
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    List<Row> rows = new ArrayList<>();
    for (MeasuredLevel l : levels) {
      compare(sweep, levels, l).ifPresent(c -> rows.add(new Row(l, c, accuracy(sweep, l))));
    }
    if (rows.isEmpty()) return Optional.empty();
    ObjectNode json = JSON.createObjectNode().put("prompts", plan.name()).put("reference", reference)
        .put("max_tokens", plan.maxTokens()).put("top_logprobs", plan.topLogprobs());
    ArrayNode all = json.putArray("candidates");
    List<String> console = new ArrayList<>();
    console.add("drift against " + reference + " (" + plan.name() + ", greedy, max_tokens " + plan.maxTokens() + "):");
    for (Row row : rows) {
      ObjectNode o = all.addObject();
      figuresJson(o, row.c());
      o.put("output_tokens_per_s", row.level().outputThroughput().perSecond());
      row.accuracy().ifPresent(a -> o.put("accuracy", a));
      console.add("  " + row.level().label() + ": " + line(row.c()) + String.format(Locale.ROOT, "; %.1f tok/s",
          row.level().outputThroughput().perSecond()) + row.accuracy().map(a -> String.format(Locale.ROOT, "; accuracy %.1f%%", 100 * a)).orElse(""));
    }
    List<FeatureSection.Attachment> figures = List.of(FeatureSection.Attachment.json("drift", json.toPrettyString()));
    return Optional.of(FeatureSection.titled("drift").withJson(json).withConsole(console)
        .withFindings(List.of(decision(rows)), List.of(FeatureSection.AnswerPlace.QUALITY))
        .withLead(lead(rows)).withHtml(table(rows)).withAttachments(figures).withFiles(figures));
  }

  private record Row(MeasuredLevel level, DriftComparison c, Optional<Double> accuracy) {}

  /**
   * The answer's part of the decision: what each candidate costs in drift, one clause each, a figure given once where
   * every load gave the same and per load where they differ: {@code drift against F16 (greedy, 16 prompts, max_tokens 32):
   * Q8_0 10/16 replies identical, 25.4 of 32.0 leading tokens in common, top-1 agreement 98.5%, mean KLD 2.16e-06 (C=1),
   * 2.14e-06 (C=2); Q4_0 ...}. The intervals are in the console's lines, the page's table and the JSON.
   */
  private String decision(List<Row> rows) {
    Map<String, List<DriftComparison>> byCandidate = new LinkedHashMap<>();
    for (Row row : rows) byCandidate.computeIfAbsent(row.c().candidate(), k -> new ArrayList<>()).add(row.c());
    List<String> parts = new ArrayList<>();
    byCandidate.forEach((candidate, loads) -> {
      List<String> figures = new ArrayList<>();
      boolean allSame = true;
      for (int i = 0; i < brief(loads.get(0)).size(); i++) {
        int part = i;
        List<String> values = loads.stream().map(c -> brief(c).get(part)).toList();
        if (values.stream().distinct().count() == 1) {
          figures.add(values.get(0));
          continue;
        }
        allSame = false;
        List<String> each = new ArrayList<>();
        for (int j = 0; j < loads.size(); j++) {
          String[] labelled = values.get(j).split("\\|");
          each.add((j == 0 ? labelled[0] : "") + labelled[1] + " (" + loads.get(j).load() + ")");
        }
        figures.add(String.join(", ", each) + (values.get(0).split("\\|").length > 2 ? values.get(0).split("\\|")[2] : ""));
      }
      String text = String.join(", ", figures).replace("|", "");
      parts.add(candidate + " " + text + (allSame ? " at " + String.join(", ", loads.stream().map(DriftComparison::load).toList()) : ""));
    });
    return "drift against " + reference + " (greedy, " + rows.get(0).c().prompts() + " prompts, max_tokens " + plan.maxTokens()
        + "): " + String.join("; ", parts);
  }

  /** The figures without their intervals, each {@code label|value|after} (label and after may be empty). */
  private static List<String> brief(DriftComparison c) {
    List<String> parts = new ArrayList<>();
    parts.add("|" + c.identical() + "/" + c.prompts() + "| replies identical");
    parts.add(String.format(Locale.ROOT, "|%.1f| of %.1f leading tokens in common", c.commonPrefix().estimate(), c.referenceLength()));
    c.top1Agreement().ifPresent(a -> parts.add(String.format(Locale.ROOT, "top-1 agreement |%.1f%%|", 100 * a.estimate())));
    c.meanKld().ifPresent(k -> parts.add("mean KLD |" + kld(k.estimate()) + "|"));
    return parts;
  }

  /** The eval's accuracy where {@code @QualityEval} graded the level too, read from its section (features never meet). */
  private static Optional<Double> accuracy(SweepRun sweep, MeasuredLevel level) {
    for (FeatureSection s : sweep.sections(level)) {
      if (s.key().equals("quality") && s.json().isPresent()) {
        JsonNode a = s.json().get().path("accuracy").path("accuracy");
        if (a.isNumber()) return Optional.of(a.asDouble());
      }
    }
    return Optional.empty();
  }

  private String lead(List<Row> rows) {
    StringBuilder s = new StringBuilder("<div class=\"drift-lead\"><p><b>Drift against ").append(esc(reference))
        .append("</b> (greedy, ").append(rows.get(0).c().prompts()).append(" prompts):</p><ul>");
    for (Row row : rows) {
      s.append("<li>").append(esc(row.level().label())).append(": ").append(esc(line(row.c())))
          .append(String.format(Locale.ROOT, "; %.1f tok/s", row.level().outputThroughput().perSecond()))
          .append(row.accuracy().map(a -> String.format(Locale.ROOT, "; accuracy %.1f%%", 100 * a)).orElse("")).append("</li>");
    }
    return s.append("</ul></div>").toString();
  }

  private String table(List<Row> rows) {
    StringBuilder s = new StringBuilder("<h3>Drift against ").append(esc(reference)).append("</h3><table class=\"drift\"><tr>"
        + "<th>level</th><th>prompts</th><th>identical</th><th>leading tokens in common</th><th>top-1 agreement</th>"
        + "<th>mean KLD</th><th>p99 KLD</th><th>max KLD</th><th>top-k mass</th><th>output tok/s</th><th>accuracy</th></tr>");
    for (Row row : rows) {
      DriftComparison c = row.c();
      s.append("<tr><td>").append(esc(row.level().label())).append("</td><td>").append(c.prompts()).append("</td><td>")
          .append(esc(percent(c.identicalShare()))).append("</td><td>")
          .append(esc(String.format(Locale.ROOT, "%.1f of %.1f %s", c.commonPrefix().estimate(), c.referenceLength(), ci(c.commonPrefix(), "%.1f"))))
          .append("</td><td>").append(esc(c.top1Agreement().map(DriftFeature::percent).orElse("n/a"))).append("</td><td>")
          .append(esc(c.meanKld().map(k -> kld(k.estimate()) + " [" + kld(k.lower()) + ", " + kld(k.upper()) + "]").orElse("n/a")))
          .append("</td><td>").append(c.p99Kld().map(DriftFeature::kld).orElse("n/a")).append("</td><td>")
          .append(c.maxKld().map(DriftFeature::kld).orElse("n/a")).append("</td><td>")
          .append(c.topMass().map(v -> String.format(Locale.ROOT, "%.1f%%", 100 * v)).orElse("n/a")).append("</td><td>")
          .append(String.format(Locale.ROOT, "%.1f", row.level().outputThroughput().perSecond())).append("</td><td>")
          .append(row.accuracy().map(a -> String.format(Locale.ROOT, "%.1f%%", 100 * a)).orElse("")).append("</td></tr>");
    }
    return s.append("</table>").toString();
  }

  /** One line of figures, the same words in every report. */
  static String line(DriftComparison c) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d/%d replies identical (%s), %.1f of %.1f leading tokens "
        + "in common %s", c.identical(), c.prompts(), percent(c.identicalShare()), c.commonPrefix().estimate(), c.referenceLength(),
        ci(c.commonPrefix(), "%.1f")));
    c.top1Agreement().ifPresent(a -> s.append(", top-1 agreement ").append(percent(a)));
    c.meanKld().ifPresent(k -> s.append(String.format(Locale.ROOT, ", mean KLD %s [%s, %s] over %d positions (p99 %s, max %s; "
        + "top-k holds %.1f%% of the reference's probability)", kld(k.estimate()), kld(k.lower()), kld(k.upper()), c.positions(),
        kld(c.p99Kld().orElse(0.0)), kld(c.maxKld().orElse(0.0)), 100 * c.topMass().orElse(0.0))));
    return s.toString();
  }

  /** A KL divergence in nats: four decimals, or three significant digits below 0.001, where quantised models live. */
  static String kld(double v) {
    if (v == 0) return "0";
    return Math.abs(v) < 0.001 ? String.format(Locale.ROOT, "%.2e", v) : String.format(Locale.ROOT, "%.4f", v);
  }

  static String percent(ConfidenceInterval ci) {
    return String.format(Locale.ROOT, "%.1f%% [%.1f%%, %.1f%%]", 100 * ci.estimate(), 100 * ci.lower(), 100 * ci.upper());
  }

  private static String ci(ConfidenceInterval ci, String format) {
    return String.format(Locale.ROOT, "[" + format + ", " + format + "]", ci.lower(), ci.upper());
  }

  static void figuresJson(ObjectNode o, DriftComparison c) {
    o.put("candidate", c.candidate()).put("reference", c.reference()).put("load", c.load()).put("prompts", c.prompts())
        .put("identical", c.identical()).put("identical_share", c.identicalShare().estimate());
    interval(o, "identical_share_ci", c.identicalShare());
    o.put("common_prefix_tokens", c.commonPrefix().estimate());
    interval(o, "common_prefix_tokens_ci", c.commonPrefix());
    o.put("reference_tokens", c.referenceLength()).put("positions", c.positions());
    c.top1Agreement().ifPresent(a -> {
      o.put("top1_agreement", a.estimate());
      interval(o, "top1_agreement_ci", a);
    });
    c.meanKld().ifPresent(k -> {
      o.put("mean_kld", k.estimate());
      interval(o, "mean_kld_ci", k);
    });
    c.p99Kld().ifPresent(v -> o.put("p99_kld", v));
    c.maxKld().ifPresent(v -> o.put("max_kld", v));
    c.topMass().ifPresent(v -> o.put("top_mass", v));
  }

  private static void interval(ObjectNode o, String field, ConfidenceInterval ci) {
    o.putArray(field).add(ci.lower()).add(ci.upper());
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** {@link Drifts} at one load. */
  private record At(String load, String reference, Map<String, DriftComparison> found) implements Drifts {
    @Override
    public Optional<DriftComparison> of(String candidate) {
      return Optional.ofNullable(found.get(candidate));
    }

    @Override
    public List<DriftComparison> all() {
      return List.copyOf(found.values());
    }

    @Override
    public String toString() {
      return "drift at " + load;
    }
  }
}
