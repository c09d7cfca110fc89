package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import dev.llmbench.internal.load.AdviceSetting;
import dev.llmbench.internal.load.AdviceTaker;
import java.util.Set;

/** Gathers a finding's parts: causes the numbers point to rank before causes they merely allow. */
final class FindingBuilder {

  private final FindingKind kind;
  private final List<String> levels = new ArrayList<>();
  /** The levels themselves: each step of advice is given only if every one takes it. */
  private final List<SweepLevelResult> levelResults = new ArrayList<>();
  private final String summary;
  private final List<Finding.Evidence> evidence = new ArrayList<>();
  private final List<Finding.Cause> likely = new ArrayList<>();
  private final List<Finding.Cause> possible = new ArrayList<>();
  private final List<Finding.Cause> ruledOut = new ArrayList<>();
  private final Set<String> nextSteps = new LinkedHashSet<>();
  private final Set<String> likelySteps = new LinkedHashSet<>();

  FindingBuilder(FindingKind kind, String summary, List<? extends SweepLevelResult> levels) {
    this.kind = kind;
    this.summary = summary;
    levels.forEach(l -> this.levels.add(l.label()));
    this.levelResults.addAll(levels);
  }

  FindingBuilder evidence(String name, double value, String unit) {
    if (!Double.isNaN(value)) evidence.add(new Finding.Evidence(name, value, unit));
    return this;
  }

  /** A cause the numbers point to, and what to try about it. */
  FindingBuilder likely(String cause, String reason, String nextStep) {
    likely.add(new Finding.Cause(cause, reason, Finding.Strength.LIKELY));
    if (nextStep != null) likelySteps.add(nextStep);
    return this;
  }

  /** A cause the numbers allow but do not show. */
  FindingBuilder possible(String cause, String reason, String nextStep) {
    possible.add(new Finding.Cause(cause, reason, Finding.Strength.POSSIBLE));
    if (nextStep != null) nextSteps.add(nextStep);
    return this;
  }

  FindingBuilder ruledOut(String cause, String reason) {
    ruledOut.add(new Finding.Cause(cause, reason, Finding.Strength.RULED_OUT));
    return this;
  }

  FindingBuilder next(String step) {
    nextSteps.add(step);
    return this;
  }

  FindingBuilder add(Causes causes) {
    causes.likely.forEach(c -> likely(c.cause(), c.reason(), causes.steps.get(c)));
    causes.possible.forEach(c -> possible(c.cause(), c.reason(), causes.steps.get(c)));
    ruledOut.addAll(causes.ruledOut);
    causes.evidence.stream().filter(e -> evidence.stream().noneMatch(x -> x.name().equals(e.name()))).forEach(evidence::add);
    return this;
  }

  Finding build() {
    List<Finding.Cause> causes = new ArrayList<>(likely);
    causes.addAll(possible);
    List<String> steps = new ArrayList<>(likelySteps);
    nextSteps.stream().filter(s -> !likelySteps.contains(s)).forEach(steps::add);
    return new Finding(kind, levels, summary, evidence, causes, ruledOut, taken(steps, levelResults));
  }

  /**
   * The steps every level takes: a step that changes a setting a level refuses (its source does not take it, or the
   * level did it already) is left out, or replaced by what the level's source advises instead.
   */
  static List<String> taken(List<String> steps, List<? extends SweepLevelResult> levels) {
    List<String> out = new ArrayList<>();
    for (String step : steps) {
      Optional<AdviceSetting> setting = AdviceSetting.of(step);
      if (setting.isEmpty()) {
        out.add(step);
        continue;
      }
      List<AdviceTaker> refusing = levels.stream().filter(l -> l instanceof AdviceTaker t && !t.accepts(setting.get()))
          .map(AdviceTaker.class::cast).toList();
      if (refusing.isEmpty()) {
        out.add(step);
      } else {
        refusing.get(0).instead(setting.get()).filter(s -> !out.contains(s)).ifPresent(out::add);
      }
    }
    return out;
  }

  /** Causes gathered apart from a finding, to be added to one. */
  static final class Causes {
    final List<Finding.Cause> likely = new ArrayList<>();
    final List<Finding.Cause> possible = new ArrayList<>();
    final List<Finding.Cause> ruledOut = new ArrayList<>();
    final List<Finding.Evidence> evidence = new ArrayList<>();
    final java.util.Map<Finding.Cause, String> steps = new java.util.HashMap<>();

    Causes likely(String cause, String reason, String step) {
      Finding.Cause c = new Finding.Cause(cause, reason, Finding.Strength.LIKELY);
      likely.add(c);
      if (step != null) steps.put(c, step);
      return this;
    }

    Causes possible(String cause, String reason, String step) {
      Finding.Cause c = new Finding.Cause(cause, reason, Finding.Strength.POSSIBLE);
      possible.add(c);
      if (step != null) steps.put(c, step);
      return this;
    }

    Causes ruledOut(String cause, String reason) {
      ruledOut.add(new Finding.Cause(cause, reason, Finding.Strength.RULED_OUT));
      return this;
    }

    /** A figure the causes rest on, carried into the finding's evidence (e.g. the GPUs' utilisation). */
    Causes evidence(String name, double value, String unit) {
      if (!Double.isNaN(value)) evidence.add(new Finding.Evidence(name, value, unit));
      return this;
    }

    Causes add(Causes other) {
      likely.addAll(other.likely);
      possible.addAll(other.possible);
      ruledOut.addAll(other.ruledOut);
      evidence.addAll(other.evidence);
      steps.putAll(other.steps);
      return this;
    }
  }
}
