package dev.llmbench.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.result.Distribution;
import org.junit.jupiter.api.Test;

class PercentilesTests {

  @Test
  void interpolatesLinearlyAsNumpyDoes() {
    double[] v = {1, 2, 3, 4};
    // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) == [2.5, 3.7, 3.97]
    assertThat(Percentiles.of(v, 50)).isCloseTo(2.5, within(1e-12));
    assertThat(Percentiles.of(v, 90)).isCloseTo(3.7, within(1e-12));
    assertThat(Percentiles.of(v, 99)).isCloseTo(3.97, within(1e-12));
    assertThat(Percentiles.of(new double[] {15, 20, 35, 40, 50}, 40)).isCloseTo(29.0, within(1e-12));
  }

  @Test
  void samplesNeededMakeThePercentileMoreThanTheMaximum() {
    assertThat(Distribution.samplesNeeded(99)).isEqualTo(100);
    assertThat(Distribution.samplesNeeded(99.9)).isEqualTo(1000);
    assertThat(Distribution.samplesNeeded(90)).isEqualTo(10);
    assertThat(Distribution.samplesNeeded(50)).isEqualTo(2);
  }

  @Test
  void bootstrapIntervalContainsTheEstimateAndRepeats() {
    double[] v = new double[200];
    for (int i = 0; i < v.length; i++) v[i] = i;
    ConfidenceInterval a = Bootstrap.percentile(v, 90);
    ConfidenceInterval b = Bootstrap.percentile(v, 90);
    assertThat(a).isEqualTo(b);
    assertThat(a.lower()).isLessThanOrEqualTo(a.estimate());
    assertThat(a.upper()).isGreaterThanOrEqualTo(a.estimate());
    assertThat(a.upper() - a.lower()).isPositive();
  }
}
