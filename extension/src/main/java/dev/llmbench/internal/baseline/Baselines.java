package dev.llmbench.internal.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.BaselineComparison;
import dev.llmbench.Delta;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/** A sweep's levels against its baseline: the comparison of each, kept with the level for every report, and the gate. */
@API(status = INTERNAL)
public final class Baselines {

  private static final Object KEY = Baselines.class;

  private Baselines() {}

  /**
   * Compares the level with the sweep's baseline and keeps the outcome with the level, where reports find
   * it ({@link #of}); a comparison without deltas, saying why, when the sweep has none to compare with.
   */
  public static BaselineComparison compare(SweepRun sweep, MeasuredLevel level) {
    Optional<BaselinePlan> plan = sweep.attribute(BaselinePlan.class);
    Optional<BaselineComparison> compared = plan.flatMap(p -> p.compare(level));
    level.memo().get(KEY, () -> compared);
    return compared.orElseGet(() -> new BaselineComparison(plan.isPresent() ? "no baseline yet: this run is saved as "
        + plan.get().file() : "no baseline: declare @Baseline", level.label(), 0, List.of()));
  }

  /** The level's comparison, when its sweep compared it with a baseline. */
  public static Optional<BaselineComparison> of(MeasuredLevel level) {
    return level.memo().get(KEY, Optional::empty);
  }

  /** Fails the level when the sweep gates on its baseline and a figure regressed, naming every one. */
  public static void gate(SweepRun sweep, BaselineComparison comparison) {
    Optional<BaselinePlan> plan = sweep.attribute(BaselinePlan.class).filter(BaselinePlan::gate);
    List<Delta> regressed = comparison.regressions();
    if (plan.isEmpty() || regressed.isEmpty()) return;
    List<String> lines = new ArrayList<>();
    regressed.forEach(d -> lines.add("  - " + d));
    throw new AssertionError(comparison.level() + ": " + regressed.size() + " figure(s) regressed against the baseline, "
        + "worse beyond noise and by more than " + Formats.percent(comparison.maxRegression()) + ":\n"
        + String.join("\n", lines) + "\n  baseline: " + comparison.source()
        + (plan.get().reference().map(r -> r.byLabel().isEmpty()).orElse(true) ? ""
            : "\n  if the change is intended, save a new baseline with -Dllmbench.baseline.save=true"));
  }

  /** A line for the sweep's findings: what the baseline did this run. */
  public static Optional<String> statement(SweepRun sweep, List<MeasuredLevel> levels) {
    return sweep.attribute(BaselinePlan.class).map(plan -> {
      if (plan.reference().isEmpty()) return "baseline: this run is saved as " + plan.file();
      long compared = levels.stream().filter(l -> of(l).filter(c -> !c.isEmpty()).isPresent()).count();
      List<String> regressed = new ArrayList<>();
      int worse = 0;
      for (MeasuredLevel l : levels) {
        Optional<BaselineComparison> c = of(l);
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
    });
  }
}
