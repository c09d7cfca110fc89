package dev.llmbench.baseline;

import static dev.llmbench.baseline.BaselineKeys.BASELINE_DIR;
import static dev.llmbench.baseline.BaselineKeys.BASELINE_MAX_REGRESSION;
import static dev.llmbench.baseline.BaselineKeys.BASELINE_SAVE;
import static dev.llmbench.baseline.BaselineKeys.BASELINE_VLLM;

import dev.llmbench.Metric;
import dev.llmbench.internal.compare.ComparisonSide;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.junit.Annotations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A sweep's baseline plan, from {@link Baseline} and the {@code llmbench.baseline.*} settings, read and
 * checked before its first level: a baseline that cannot be read is a configuration error, not a failure
 * found after the whole sweep ran.
 */
final class BaselineSettings {

  private BaselineSettings() {}

  /** What a level's method gets as its BaselineComparison when its sweep has no baseline: no deltas, and why. */
  static BaselineComparison none(String level) {
    return new BaselineComparison("no baseline: declare @Baseline", level, 0, List.of());
  }

  /**
   * The baseline feature of a sweep that declares one.
   *
   * @throws IllegalArgumentException naming the attribute or setting at fault, or the baseline that does not read
   */
  static Optional<BaselineFeature> feature(ExtensionContext context, SweepRun sweep) {
    return plan(context, sweep).map(BaselineFeature::new);
  }

  private static Optional<BaselinePlan> plan(ExtensionContext context, SweepRun sweep) {
    Settings settings = Settings.of(context);
    Optional<Baseline> annotation = Annotations.nearest(context, Baseline.class);
    Optional<Path> vllm = settings.get(BASELINE_VLLM).optional();
    if (annotation.isEmpty() && vllm.isEmpty()) return Optional.empty();
    double declared = annotation.map(Baseline::maxRegression).orElse(0.10);
    if (!(declared >= 0 && declared < 1)) {
      throw new IllegalArgumentException("@Baseline maxRegression must be a fraction from 0 up to 1, e.g. 0.10 for 10%; was "
          + declared);
    }
    Double configured = settings.get(BASELINE_MAX_REGRESSION).value();
    boolean gate = configured == null ? annotation.map(Baseline::failOnRegression).orElse(true) : !configured.isNaN();
    double maxRegression = configured == null || configured.isNaN() ? declared : configured;
    Path file = annotation.map(Baseline::file).filter(f -> !f.isBlank()).map(Path::of)
        .orElseGet(() -> settings.get(BASELINE_DIR).value().resolve(sweep.id() + ".json"));
    List<Double> percentiles = percentiles(annotation.map(Baseline::percentiles).orElse(new double[] {50}));
    List<Metric> metrics = metrics(annotation.map(Baseline::metrics).orElse(ComparisonSide.COMPARED.toArray(Metric[]::new)));
    if (vllm.isPresent()) {
      return Optional.of(new BaselinePlan(file, false, Optional.of(VllmReference.read(vllm.get())), metrics, percentiles,
          maxRegression, gate));
    }
    boolean save = settings.get(BASELINE_SAVE).value() || !Files.exists(file);
    Optional<Reference> reference = save ? Optional.empty() : Optional.of(BaselineFile.read(file));
    return Optional.of(new BaselinePlan(file, save, reference, metrics, percentiles, maxRegression, gate));
  }

  private static List<Metric> metrics(Metric[] metrics) {
    if (metrics.length == 0) throw new IllegalArgumentException("@Baseline metrics must list at least one, e.g. Metric.ITL");
    for (Metric m : metrics) {
      if (!ComparisonSide.COMPARED.contains(m)) {
        throw new IllegalArgumentException("@Baseline compares " + ComparisonSide.COMPARED + ", not " + m);
      }
    }
    return Arrays.stream(metrics).distinct().toList();
  }

  private static List<Double> percentiles(double[] values) {
    if (values.length == 0) throw new IllegalArgumentException("@Baseline percentiles must list at least one, e.g. {50}");
    List<Double> ps = new ArrayList<>();
    for (double p : values) {
      if (p <= 0 || p >= 100) throw new IllegalArgumentException("@Baseline percentile " + p + " must be between 0 and 100");
      if (!ps.contains(p)) ps.add(p);
    }
    return List.copyOf(ps);
  }
}
