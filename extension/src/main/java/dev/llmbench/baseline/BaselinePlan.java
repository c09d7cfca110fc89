package dev.llmbench.baseline;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a sweep does with its baseline: compare with a reference, save itself as the baseline, or both
 * never (a vLLM reference is only compared with).
 *
 * @param file          where the sweep saves itself, when {@code save}
 * @param save          whether this run becomes the baseline at the end
 * @param reference     what each level is compared with; empty when saving a first baseline
 * @param metrics       the figures compared
 * @param percentiles   the percentiles latencies are compared at
 * @param maxRegression the worsening beyond noise that counts as regressed, a fraction
 * @param gate          whether a regression fails its level
 */
record BaselinePlan(Path file, boolean save, Optional<Reference> reference, List<Metric> metrics, List<Double> percentiles,
    double maxRegression, boolean gate) {

  public Optional<BaselineComparison> compare(SweepLevelResult level) {
    return reference.map(r -> r.compare(level, metrics, percentiles, maxRegression));
  }
}
