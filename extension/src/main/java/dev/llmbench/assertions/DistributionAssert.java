package dev.llmbench.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import java.time.Duration;
import java.util.Locale;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.AbstractDurationAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.presentation.StandardRepresentation;

/**
 * Assertions on one latency metric of a level: pick a statistic, then compare it like any AssertJ
 * {@link Duration}. A failure reads {@code [C=8: TTFT p99] Expecting actual: 1.204 s to be less than: 1.000 s}.
 *
 * <p>A percentile needs enough samples to be more than the maximum (p99 needs 100). Asserting on one with
 * fewer fails and says how many are needed, unless {@link SweepLevelResultAssert#allowingFewSamples()}
 * was called.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DistributionAssert extends AbstractAssert<DistributionAssert, Distribution> {

  static final StandardRepresentation READABLE = new StandardRepresentation() {
    @Override
    protected String fallbackToStringOf(Object object) {
      return object instanceof Duration d ? Formats.duration(d) : super.fallbackToStringOf(object);
    }
  };

  private final SweepLevelResult level;
  private final Metric metric;
  private final boolean allowFewSamples;

  DistributionAssert(SweepLevelResult level, Metric metric, boolean allowFewSamples) {
    super(metric.distributionOf(level), DistributionAssert.class);
    this.level = level;
    this.metric = metric;
    this.allowFewSamples = allowFewSamples;
  }

  /** {@return an assertion on the mean} */
  public AbstractDurationAssert<?> mean() {
    return statistic("mean", actual.mean().orElse(null));
  }

  /** {@return an assertion on the largest sample} */
  public AbstractDurationAssert<?> max() {
    return statistic("max", actual.max().orElse(null));
  }

  /** {@return an assertion on the median} */
  public AbstractDurationAssert<?> p50() {
    return percentile(50);
  }

  /** {@return an assertion on the 90th percentile} */
  public AbstractDurationAssert<?> p90() {
    return percentile(90);
  }

  /** {@return an assertion on the 95th percentile} */
  public AbstractDurationAssert<?> p95() {
    return percentile(95);
  }

  /** {@return an assertion on the 99th percentile} */
  public AbstractDurationAssert<?> p99() {
    return percentile(99);
  }

  /**
   * {@return an assertion on the {@code p}-th percentile}
   *
   * @param p the percentile, 0 &lt; p &le; 100
   */
  public AbstractDurationAssert<?> percentile(double p) {
    requireSamples(p);
    return statistic(Formats.percentile(p), actual.percentile(p).orElse(null));
  }

  /**
   * {@return the upper bound of the 95% interval of a percentile: a gate on it does not flake on noise}
   *
   * @param p the percentile, 0 &lt; p &le; 100
   */
  public AbstractDurationAssert<?> percentileUpperBound(double p) {
    requireSamples(p);
    double upper = level.percentileCi(metric, p).upper();
    return statistic(Formats.percentile(p) + " 95% CI upper bound", Duration.ofNanos(Math.round(upper)));
  }

  private void requireSamples(double p) {
    if (actual.isEmpty()) failWithMessage("%s: no %s samples (no successful request)", level.label(), metric.label());
    if (!actual.supports(p) && !allowFewSamples) failWithMessage("%s: %s", level.label(), tooFew(metric, actual, p));
  }

  private AbstractDurationAssert<?> statistic(String what, Duration value) {
    if (value == null) failWithMessage("%s: no %s samples (no successful request)", level.label(), metric.label());
    return Assertions.assertThat(value).withRepresentation(READABLE)
        .as("%s: %s %s", level.label(), metric.label(), what);
  }

  /** Why a percentile that rests on too few samples is not checked, and what would fix it. */
  static String tooFew(Metric metric, Distribution d, double p) {
    return String.format(Locale.ROOT, "%s %s rests on %d samples, so it is only the maximum; it needs at least %d requests "
        + "(raise @Measurement(requests), use adaptive mode with targetCiHalfWidth, or call allowingFewSamples())",
        metric.label(), Formats.percentile(p), d.count(), Distribution.samplesNeeded(p));
  }
}
