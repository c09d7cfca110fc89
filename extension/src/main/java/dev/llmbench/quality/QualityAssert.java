package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link Quality}, failing only beyond noise: an accuracy bound fails when the whole 95%
 * Wilson interval misses it, a comparison when the paired interval (or the exact McNemar test) says so. A
 * comparison with a deployment not yet measured at this load passes: it is decided in the later one's test.
 *
 * <pre>{@code
 * assertThat(quality).deployment("int4").hasAccuracyAtLeast(0.6).recoversAtLeast(0.97).of("fp8");
 * assertThat(quality).deployment("int4").isNotWorseThan("fp8");
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class QualityAssert extends AbstractAssert<QualityAssert, Quality> {

  /**
   * Made by {@code LlmBenchAssertions.assertThat}, the one entry point of the assertions.
   *
   * @param actual the quality asserted on
   */
  @API(status = INTERNAL)
  public QualityAssert(Quality actual) {
    super(actual, QualityAssert.class);
  }

  /**
   * The deployment the following assertions are about.
   *
   * @param name a deployment of the sweep
   * @return assertions on that deployment at this load
   */
  public DeploymentQuality deployment(String name) {
    isNotNull();
    return new DeploymentQuality(actual, known(actual, name));
  }

  /**
   * Every deployment measured at this load (or the one endpoint) has an accuracy of at least {@code minimum},
   * beyond noise: it fails only where the interval's upper bound is below it.
   *
   * @param minimum the least accuracy, a fraction (0.8 for 80%)
   * @return this assertion
   */
  public QualityAssert hasAccuracyAtLeast(double minimum) {
    isNotNull();
    List<String> violations = new ArrayList<>();
    for (String d : actual.deployments()) {
      actual.accuracy(d).filter(a -> a.interval().upper() < minimum)
          .ifPresent(a -> violations.add(name(d) + "accuracy " + a + " is below " + percent(minimum) + " beyond noise"));
    }
    if (!violations.isEmpty()) failWithMessage("[%s] %s", actual.load(), String.join("; ", violations));
    return this;
  }

  /**
   * Every deployment (or the one endpoint) has an unparsed rate of at most {@code maximum}, beyond noise.
   *
   * @param maximum the largest share of replies without an answer, a fraction
   * @return this assertion
   */
  public QualityAssert hasUnparsedRateAtMost(double maximum) {
    isNotNull();
    List<String> violations = new ArrayList<>();
    for (String d : actual.deployments()) {
      actual.accuracy(d).ifPresent(a -> {
        double lower = wilsonLower(a.unparsed(), a.graded());
        if (lower > maximum) {
          violations.add(name(d) + "unparsed rate " + percent(a.unparsedRate()) + " (" + a.unparsed() + " of " + a.graded()
              + ", 95% interval from " + percent(lower) + ") is above " + percent(maximum) + " beyond noise");
        }
      });
    }
    if (!violations.isEmpty()) failWithMessage("[%s] %s", actual.load(), String.join("; ", violations));
    return this;
  }

  private static String name(String deployment) {
    return deployment.isEmpty() ? "" : deployment + ": ";
  }

  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  /** Wilson's lower bound, as {@link Accuracy#interval()} computes its bounds (docs/quality.md). */
  static double wilsonLower(int successes, int n) {
    if (n == 0 || successes == 0) return 0; // exactly: rounding would leave a bound of 1e-17 above none
    double z = 1.959963984540054;
    double p = (double) successes / n;
    double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    double half = z / (1 + z * z / n) * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
    return Math.max(0, centre - half);
  }

  static String known(Quality quality, String name) {
    if (!quality.deployments().contains(name)) {
      throw new IllegalArgumentException("no deployment '" + name + "' in this sweep; it compares " + quality.deployments());
    }
    return name;
  }

  /** Assertions on one deployment's answers at this load. */
  @API(status = EXPERIMENTAL, since = "0.1")
  public static final class DeploymentQuality extends AbstractAssert<DeploymentQuality, Quality> {

    private final String subject;

    DeploymentQuality(Quality actual, String subject) {
      super(actual, DeploymentQuality.class);
      this.subject = subject;
    }

    /**
     * Its accuracy is at least {@code minimum} beyond noise: fails only when the 95% interval's upper bound is
     * below it.
     *
     * @param minimum the least accuracy, a fraction (0.8 for 80%)
     * @return this assertion
     */
    public DeploymentQuality hasAccuracyAtLeast(double minimum) {
      actual.accuracy(subject).filter(a -> a.interval().upper() < minimum).ifPresent(a -> failWithMessage(
          "[%s] %s: accuracy %s is below %s beyond noise", actual.load(), subject, a, percent(minimum)));
      return this;
    }

    /**
     * It answers no fewer items right than {@code reference}, beyond chance: fails when it lost more items than it
     * gained and the exact McNemar test's p-value is below 0.05.
     *
     * @param reference the deployment it is compared with
     * @return this assertion
     */
    public DeploymentQuality isNotWorseThan(String reference) {
      comparison(reference).filter(QualityComparison::worseBeyondNoise).ifPresent(c -> failWithMessage(
          "[%s] %s answers fewer items right than %s beyond noise: %s; lost %s", actual.load(), subject, reference, c,
          c.lost().size() > 10 ? c.lost().subList(0, 10) + " and " + (c.lost().size() - 10) + " more" : c.lost()));
      return this;
    }

    /**
     * Starts a recovery bound: {@code recoversAtLeast(0.97).of("fp8")} fails when even the upper bound of the
     * 95% interval of this deployment's accuracy over fp8's is below 97%.
     *
     * @param minimum the least recovery, a fraction (0.97 for 97%)
     * @return the bound, to be finished by {@link Recovery#of(String)}
     */
    public Recovery recoversAtLeast(double minimum) {
      if (!(minimum > 0)) throw new IllegalArgumentException("a recovery bound is a positive fraction, e.g. 0.97; was " + minimum);
      return new Recovery(this, minimum);
    }

    private Optional<QualityComparison> comparison(String reference) {
      isNotNull();
      return actual.compare(subject, known(actual, reference));
    }

    /** A recovery bound waiting for the deployment it is measured against. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public static final class Recovery {
      private final DeploymentQuality owner;
      private final double minimum;

      Recovery(DeploymentQuality owner, double minimum) {
        this.owner = owner;
        this.minimum = minimum;
      }

      /**
       * Checks the bound against {@code reference}.
       *
       * @param reference the deployment whose accuracy is 100%
       * @return the deployment's assertions, to go on
       */
      public DeploymentQuality of(String reference) {
        owner.comparison(reference).filter(c -> c.recovery().upper() < minimum).ifPresent(c -> owner.failWithMessage(
            "[%s] %s recovers %s of %s's accuracy, below %s beyond noise (95%% interval up to %s): %s", owner.actual.load(),
            owner.subject, percent(c.recovery().estimate()), reference, percent(minimum), percent(c.recovery().upper()), c));
        return owner;
      }
    }
  }
}
