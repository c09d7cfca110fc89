package dev.llmbench.internal.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.internal.metrics.Percentiles;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LengthDistributionTests {

  private static int[] draws(LengthDistribution d, long seed, int n) {
    return IntStream.range(0, n).map(i -> d.draw(seed, i)).toArray();
  }

  private static double sd(int[] v) {
    double m = mean(v);
    return Math.sqrt(Arrays.stream(v).mapToDouble(x -> (x - m) * (x - m)).sum() / v.length);
  }

  private static double mean(int[] v) {
    return Arrays.stream(v).average().orElseThrow();
  }

  @Test
  void fixedIsAlwaysItsLength() {
    assertThat(draws(LengthDistribution.parse("128"), 1, 100)).containsOnly(128);
    assertThat(LengthDistribution.parse("fixed(64)")).isEqualTo(new LengthDistribution.Fixed(64));
  }

  @Test
  void uniformCoversItsWholeRangeEvenly() {
    int[] v = draws(LengthDistribution.parse("uniform(10,20)"), 3, 11_000);
    assertThat(Arrays.stream(v).min().orElseThrow()).isEqualTo(10);
    assertThat(Arrays.stream(v).max().orElseThrow()).isEqualTo(20);
    for (int length = 10; length <= 20; length++) {
      int l = length;
      assertThat(Arrays.stream(v).filter(x -> x == l).count()).as("draws of %d", l).isBetween(850L, 1150L);
    }
  }

  @Test
  void normalHasItsMeanAndSpreadAndStaysInItsBounds() {
    int[] v = draws(LengthDistribution.parse("normal(480,240,min=1,max=2048)"), 5, 20_000);
    assertThat(Arrays.stream(v).min().orElseThrow()).isGreaterThanOrEqualTo(1);
    assertThat(Arrays.stream(v).max().orElseThrow()).isLessThanOrEqualTo(2048);
    // Truncated at 1, about 2.3% of the mass lies below (z = -2.0): the truncated normal's mean is 493.4 and its
    // standard deviation 225.8 (mu + sigma phi(a) / (1 - Phi(a)), and its variance formula, a = -1.996).
    assertThat(mean(v)).isCloseTo(493.4, within(5.0));
    assertThat(sd(v)).isCloseTo(225.8, within(5.0));
    int[] far = draws(LengthDistribution.parse("normal(1000,100)"), 5, 20_000);
    assertThat(mean(far)).isCloseTo(1000, within(3.0));
    assertThat(sd(far)).isCloseTo(100, within(3.0));
    int[] tight = draws(LengthDistribution.parse("normal(100,50,min=90,max=110)"), 5, 2_000);
    assertThat(Arrays.stream(tight).min().orElseThrow()).isGreaterThanOrEqualTo(90);
    assertThat(Arrays.stream(tight).max().orElseThrow()).isLessThanOrEqualTo(110);
  }

  @Test
  void logNormalHasItsMeanAndMedianAndALongRightTail() {
    int[] v = draws(LengthDistribution.parse("lognormal(512,400)"), 9, 40_000);
    double[] d = Arrays.stream(v).asDoubleStream().toArray();
    assertThat(Percentiles.of(d, 50)).isCloseTo(400, within(12.0));
    assertThat(mean(v)).isCloseTo(512, within(20.0));
    assertThat(Percentiles.of(d, 99)).isGreaterThan(3 * 400);
    assertThat(Arrays.stream(draws(LengthDistribution.parse("lognormal(512,400,max=600)"), 9, 2_000)).max().orElseThrow())
        .isLessThanOrEqualTo(600);
  }

  @Test
  void empiricalDrawsEachLengthByItsWeight() {
    int[] v = draws(LengthDistribution.parse("empirical(128:50, 512:30, 2048:20)"), 11, 20_000);
    assertThat(v).containsOnly(128, 512, 2048);
    assertThat(Arrays.stream(v).filter(x -> x == 128).count() / 20_000.0).isCloseTo(0.5, within(0.02));
    assertThat(Arrays.stream(v).filter(x -> x == 512).count() / 20_000.0).isCloseTo(0.3, within(0.02));
    assertThat(Arrays.stream(v).filter(x -> x == 2048).count() / 20_000.0).isCloseTo(0.2, within(0.02));
    assertThat(LengthDistribution.parse("empirical(128:50,512:30,2048:20)").mean()).isCloseTo(627.2, within(1e-9));
  }

  @ParameterizedTest
  @ValueSource(strings = {"128", "uniform(64,512)", "normal(480,240,min=10,max=2048)", "lognormal(512,400,max=8192)",
      "empirical(128:50,512:30,2048:20)"})
  void theSameSeedDrawsTheSameLengthsAndTheSpecReadsBack(String spec) {
    LengthDistribution d = LengthDistribution.parse(spec);
    assertThat(draws(d, 42, 500)).isEqualTo(draws(LengthDistribution.parse(spec), 42, 500));
    assertThat(LengthDistribution.parse(d.spec())).isEqualTo(d);
    assertThat(d.spec()).isEqualTo(spec);
    if (!(d instanceof LengthDistribution.Fixed)) assertThat(draws(d, 42, 500)).isNotEqualTo(draws(d, 43, 500));
  }

  @Test
  void aDrawIsAPureFunctionOfSeedAndIndex() {
    LengthDistribution d = LengthDistribution.parse("uniform(1,1000000)");
    // Request 7 has its length whatever was drawn before it, so that shards (every n-th index) agree with one run.
    assertThat(d.draw(42, 7)).isEqualTo(d.draw(42, 7));
    assertThat(IntStream.range(0, 100).map(i -> d.draw(42, i)).distinct().count()).isGreaterThan(95);
  }

  @Test
  void badSpecsSayWhatIsWrongAndWhatWouldBeAccepted() {
    assertBad("", "it is neither a whole number nor shape(arguments)");
    assertBad("0", "a length must be at least 1");
    assertBad("-5", "it is neither a whole number");
    assertBad("normal(480)", "normal takes 2 numbers (and min=, max=), got 1");
    assertBad("normal(480,-1)", "stdev >= 0");
    assertBad("normal(480,240,min=0)", "min must be at least 1");
    assertBad("normal(480,240,min=10,max=5)", "max 5 is below min 10");
    assertBad("normal(480,240,top=5)", "'top=5' is not an option");
    assertBad("uniform(512,64)", "1 <= low <= high");
    assertBad("lognormal(300,400)", "mean >= median > 0");
    assertBad("empirical()", "length:weight pairs");
    assertBad("empirical(128:0)", "the weight of 128 must be positive");
    assertBad("empirical(128)", "'128' is not length:weight");
    assertBad("poisson(3)", "'poisson' is not a shape");
    assertBad("normal(abc,1)", "mean 'abc' is not a number");
    assertBad("normal(480,240", "neither a whole number nor shape(arguments)");
  }

  private static void assertBad(String spec, String why) {
    assertThatThrownBy(() -> LengthDistribution.parse(spec)).as(spec).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + spec + "' is not a length distribution").hasMessageContaining(why)
        .hasMessageContaining("write e.g. 128, uniform(64,512), normal(480,240,min=1,max=2048)");
  }
}
