package dev.llmbench.baseline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Delta;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One level compared with its baseline (see {@link Baseline}): a {@link Delta} per figure both runs have.
 * Inject it beside the {@link SweepLevelResult} to assert on it yourself; with a {@link Baseline} the
 * level also fails by itself on any {@link Delta.Verdict#REGRESSED} figure.
 *
 * @param source        the baseline: its file, and for a vLLM result file which of its runs
 * @param level         the level compared, e.g. {@code C=8}
 * @param maxRegression the worsening allowed before a figure counts as regressed, a fraction (0.1 for 10%)
 * @param deltas        one per figure, in the order of {@link Metric}; empty when the baseline has no such level
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record BaselineComparison(String source, String level, double maxRegression, List<Delta> deltas) {

  /**
   * Copies {@code deltas}, so the comparison cannot change.
   *
   * @param source        the baseline: its file, and for a vLLM result file which of its runs
   * @param level         the level compared, e.g. {@code C=8}
   * @param maxRegression the worsening allowed before a figure counts as regressed, a fraction (0.1 for 10%)
   * @param deltas        one per figure, in the order of {@link Metric}; empty when the baseline has no such level
   */
  public BaselineComparison {
    deltas = List.copyOf(deltas);
  }

  /** {@return the figures worse than the baseline beyond noise and beyond {@link #maxRegression()}} */
  public List<Delta> regressions() {
    return deltas.stream().filter(d -> d.verdict() == Delta.Verdict.REGRESSED).toList();
  }

  /** {@return whether any figure regressed: {@link #regressions()} is not empty} */
  public boolean hasRegressions() {
    return !regressions().isEmpty();
  }

  /** {@return whether the baseline had this level at all} */
  public boolean isEmpty() {
    return deltas.isEmpty();
  }

  /**
   * Names the level only, so that reports recording parameters (Allure) see the same value every run;
   * {@link #report()} has the deltas.
   */
  @Override
  public String toString() {
    return "baseline of " + level;
  }

  /** {@return one line per figure, under a heading naming the baseline} */
  public String report() {
    if (deltas.isEmpty()) return level + ": no baseline level to compare with in " + source;
    StringBuilder s = new StringBuilder(level + " against " + source + " (regressed: worse beyond noise and by more than "
        + Formats.percent(maxRegression) + "):");
    deltas.forEach(d -> s.append("\n  - ").append(d));
    return s.toString();
  }
}
