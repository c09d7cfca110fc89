package dev.llmbench.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.AfterSweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.AbstractDoubleAssert;
import org.assertj.core.api.Assertions;

/**
 * Assertions on a whole sweep, for a method annotated {@link AfterSweep}. A failure about findings lists
 * every finding it concerns with its evidence and likely causes: {@code [EmbeddedDeploymentBenchmarkTest.throughput]
 * expected no finding of kind THROUGHPUT_DROP but found 1: ...}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SweepResultAssert extends AbstractAssert<SweepResultAssert, SweepResult> {

  SweepResultAssert(SweepResult actual) {
    super(actual, SweepResultAssert.class);
  }

  /**
   * {@return scaling efficiency at {@code concurrency} (0..1); fails when no closed-loop level ran at it}
   *
   * @param concurrency a level's concurrency
   */
  public AbstractDoubleAssert<?> scalingEfficiencyAt(int concurrency) {
    isNotNull();
    double e = actual.scalingEfficiency(concurrency).orElseGet(() -> {
      failWithMessage("[%s] no closed-loop level ran at C=%d (levels: %s)", actual.title(), concurrency,
          actual.levels().stream().map(SweepLevelResult::label).toList());
      return Double.NaN;
    });
    return Assertions.assertThat(e).as("[%s] scaling efficiency at C=%d", actual.title(), concurrency);
  }

  /**
   * Scaling efficiency at {@code concurrency} is at least {@code fraction} (0.8 for 80%).
   *
   * @return this assertion
   * @param concurrency a level's concurrency
   * @param fraction the least efficiency, 0..1
   */
  public SweepResultAssert hasScalingEfficiencyAtLeast(int concurrency, double fraction) {
    isNotNull();
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("scaling efficiency is a fraction above 0 and at most 1 (0.8 for 80%), was " + fraction);
    }
    double e = actual.scalingEfficiency(concurrency).orElse(Double.NaN);
    if (Double.isNaN(e)) {
      failWithMessage("[%s] no closed-loop level ran at C=%d (levels: %s)", actual.title(), concurrency,
          actual.levels().stream().map(SweepLevelResult::label).toList());
    } else if (e < fraction) {
      failWithMessage("[%s] expected a scaling efficiency of at least %s at C=%d but it was %s%s", actual.title(),
          Formats.percent(fraction), concurrency, Formats.percent(e), related(FindingKind.SCALING, FindingKind.KNEE,
              FindingKind.DIP, FindingKind.PLATEAU));
    }
    return this;
  }

  /**
   * No level's throughput fell beyond noise as concurrency rose.
   *
   * @return this assertion
   */
  public SweepResultAssert hasNoThroughputDrop() {
    return hasNoFindings(FindingKind.THROUGHPUT_DROP);
  }

  /**
   * None of the given kinds was found; each one that was is listed with its evidence and causes.
   *
   * @return this assertion
   * @param kinds the kinds that must not be found
   */
  public SweepResultAssert hasNoFindings(FindingKind... kinds) {
    isNotNull();
    if (kinds.length == 0) throw new IllegalArgumentException("name the kinds, e.g. hasNoFindings(FindingKind.COLD_START)");
    Set<FindingKind> wanted = Set.copyOf(Arrays.asList(kinds));
    List<Finding> found = actual.findings().stream().filter(f -> wanted.contains(f.kind())).toList();
    if (!found.isEmpty()) {
      failWithMessage("[%s] expected no finding of kind %s but found %d:%n%s", actual.title(),
          wanted.stream().map(Enum::name).sorted().collect(Collectors.joining(", ")), found.size(), list(found));
    }
    return this;
  }

  /**
   * No anomaly ({@link FindingKind#isAnomaly()}) was found.
   *
   * @return this assertion
   */
  public SweepResultAssert hasNoAnomalies() {
    return hasNoFindings(Arrays.stream(FindingKind.values()).filter(FindingKind::isAnomaly).toArray(FindingKind[]::new));
  }

  /**
   * A finding of {@code kind} was found.
   *
   * @return this assertion
   * @param kind the kind
   */
  public SweepResultAssert hasFinding(FindingKind kind) {
    isNotNull();
    if (actual.findings(kind).isEmpty()) {
      failWithMessage("[%s] expected a finding of kind %s but found only: %s", actual.title(), kind,
          actual.findings().stream().map(f -> f.kind().name()).distinct().toList());
    }
    return this;
  }

  private String related(FindingKind... kinds) {
    Set<FindingKind> wanted = Set.copyOf(Arrays.asList(kinds));
    List<Finding> found = actual.findings().stream().filter(f -> wanted.contains(f.kind())).toList();
    return found.isEmpty() ? "" : "; the analysis read:\n" + list(found);
  }

  private static String list(List<Finding> findings) {
    return findings.stream().map(f -> "  - " + f.text().replace("\n", "\n    ")).collect(Collectors.joining("\n"));
  }
}
