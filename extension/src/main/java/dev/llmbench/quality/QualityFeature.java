package dev.llmbench.quality;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.result.ConfidenceInterval;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The quality feature of a sweep with a {@code @QualityEval}: grades each level's replies, compares
 * deployments item by item at each load (each against the first deployment, the reference), and says so in
 * every report through its {@link FeatureSection}s; a level's test method gets the {@link Quality} at its load.
 */
final class QualityFeature implements SweepFeature {

  static final ObjectMapper JSON = new ObjectMapper();

  /** The comparison's key, in each level's JSON and in the sweep's (level files said {@code vs_<reference>} before). */
  static final String VS_REFERENCE = "vs_reference";

  private final EvalPlan plan;
  private final List<String> deployments;

  /** @param deployments the sweep's deployments, the first being the reference; empty for one endpoint */
  public QualityFeature(EvalPlan plan, List<String> deployments) {
    this.plan = plan;
    this.deployments = deployments.isEmpty() ? List.of("") : List.copyOf(deployments);
  }

  @Override
  public String key() {
    return "quality";
  }

  public EvalPlan plan() {
    return plan;
  }

  public List<String> deployments() {
    return deployments;
  }

  /** The level's replies graded, once per level. */
  public LevelGrading grading(MeasuredLevel level) {
    return level.memo().get(new GradingKey(this), () -> LevelGrading.of(plan.set(), level));
  }

  private record GradingKey(QualityFeature feature) {}

  /** What the eval found at the level's load among the levels measured so far, for its test method. */
  @Override
  public Map<Class<?>, Object> parameters(SweepRun sweep, MeasuredLevel level) {
    return Map.of(Quality.class, at(sweep, ByDeployment.load(level)));
  }

  /** What the eval found at {@code load} among the levels measured so far. */
  public Quality at(SweepRun sweep, String load) {
    return at(sweep.levels(), load);
  }

  Quality at(List<MeasuredLevel> levels, String load) {
    Map<String, LevelGrading> measured = new LinkedHashMap<>();
    for (MeasuredLevel l : levels) {
      if (ByDeployment.load(l).equals(load)) measured.put(ByDeployment.name(l), grading(l));
    }
    return new At(load, deployments, measured);
  }

  /** The reference every other deployment is compared with: the first one. */
  String reference() {
    return deployments.get(0);
  }

  @Override
  public Optional<FeatureSection> level(SweepRun sweep, MeasuredLevel level) {
    LevelGrading g = grading(level);
    String name = ByDeployment.name(level);
    Accuracy a = g.accuracy();
    ObjectNode json = JSON.createObjectNode();
    json.put("eval", plan.set().name());
    json.put("items", plan.set().size());
    accuracyJson(json.putObject("accuracy"), a);
    Map<String, Accuracy> byGrader = g.byGrader();
    if (byGrader.size() > 1) byGrader.forEach((grader, ga) -> accuracyJson(json.putObject("by_grader").putObject(grader), ga));
    String line = level.label() + " | quality: " + plan.set().name() + " " + a;
    List<MeasuredLevel> known = new ArrayList<>(sweep.levels());
    if (!known.contains(level)) known.add(level);
    Optional<QualityComparison> vs = name.equals(reference()) ? Optional.empty()
        : at(known, ByDeployment.load(level)).compare(name, reference());
    List<String> console = new ArrayList<>(List.of(line));
    vs.ifPresent(c -> {
      comparisonJson(json.putObject(VS_REFERENCE), c); // the reference's name is inside, as "reference"
      console.add(level.label() + " | quality vs " + c.reference() + ": " + QualityPage.comparisonLine(c));
    });
    if (byGrader.size() > 1) {
      List<String> parts = new ArrayList<>();
      byGrader.forEach((grader, ga) -> parts.add(String.format(Locale.ROOT, "%s %d/%d", grader, ga.correct(), ga.graded())
          + (ga.unparsed() > 0 ? " (" + ga.unparsed() + " unparsed)" : "")));
      console.add(level.label() + " | quality by grader: " + String.join(", ", parts));
    }
    return Optional.of(FeatureSection.titled("quality").withJson(json).withConsole(console)
        .withHtml(QualityPage.levelHtml(level.label(), plan.set().name(), a, byGrader, vs)));
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    if (levels.isEmpty()) return Optional.empty();
    QualityPage page = new QualityPage(this, sweep.title(), levels);
    return Optional.of(FeatureSection.titled("quality and speed").withJson(page.json()).withConsole(page.console())
        .withLead(page.html()).withFindings(page.findings()).withAttachments(page.attachments()).withFiles(page.attachments()));
  }

  static void accuracyJson(ObjectNode o, Accuracy a) {
    o.put("accuracy", a.value());
    interval(o, "accuracy_ci", a.interval());
    o.put("correct", a.correct()).put("wrong", a.wrong()).put("unparsed", a.unparsed()).put("failed", a.failed())
        .put("graded", a.graded()).put("unparsed_rate", a.unparsedRate());
  }

  static void comparisonJson(ObjectNode o, QualityComparison c) {
    o.put("candidate", c.candidate()).put("reference", c.reference()).put("pairs", c.pairs())
        .put("both_correct", c.bothCorrect()).put("only_reference", c.onlyReference()).put("only_candidate", c.onlyCandidate())
        .put("neither", c.neither());
    o.put("difference", c.difference().estimate());
    interval(o, "difference_ci", c.difference());
    o.put("recovery", c.recovery().estimate());
    interval(o, "recovery_ci", c.recovery());
    o.put("mcnemar_p", c.mcNemarP()).put("worse_beyond_noise", c.worseBeyondNoise());
    ArrayNode lost = o.putArray("lost");
    c.lost().forEach(lost::add);
    ArrayNode gained = o.putArray("gained");
    c.gained().forEach(gained::add);
  }

  private static void interval(ObjectNode o, String field, ConfidenceInterval ci) {
    o.putArray(field).add(ci.lower()).add(ci.upper());
  }

  /** {@link Quality} at one load: the gradings measured there so far. */
  private record At(String load, List<String> deployments, Map<String, LevelGrading> measured) implements Quality {

    @Override
    public Optional<Accuracy> accuracy(String deployment) {
      return Optional.ofNullable(measured.get(deployment)).map(LevelGrading::accuracy);
    }

    @Override
    public Accuracy accuracy() {
      if (measured.size() != 1) {
        throw new IllegalStateException(load + " has " + measured.size() + " deployments measured " + measured.keySet()
            + ": name one, accuracy(\"" + deployments.get(0) + "\")");
      }
      return measured.values().iterator().next().accuracy();
    }

    @Override
    public Optional<QualityComparison> compare(String candidate, String reference) {
      LevelGrading c = measured.get(candidate);
      LevelGrading r = measured.get(reference);
      if (c == null || r == null) return Optional.empty();
      return Optional.of(Pairing.compare(candidate, c, reference, r));
    }

    @Override
    public String toString() {
      return "quality at " + load;
    }
  }
}
