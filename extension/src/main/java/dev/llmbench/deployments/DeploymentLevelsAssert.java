package dev.llmbench.deployments;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Delta;
import java.util.Optional;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on how deployments compare at one load, noise-aware: a deployment fails to be "at least as
 * fast" only when the 95% interval of the change, from bootstrap resamples of both deployments' requests,
 * lies wholly on the slow side (beyond the tolerance, when one is given). A comparison waits until both
 * deployments are measured at this load, so it is decided in the test of the later one.
 *
 * <pre>{@code
 * assertThat(atThisLoad).deployment("int4").isAtLeastAsFastAs("nvfp4")
 *     .hasLatencyAtMostThatOf("nvfp4", Metric.TTFT, 90);
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DeploymentLevelsAssert extends AbstractAssert<DeploymentLevelsAssert, DeploymentLevels> {

  private final String subject;

  /**
   * Made by {@code LlmBenchAssertions.assertThat}, the one entry point of the assertions.
   *
   * @param actual  the deployments' levels asserted on
   * @param subject what a failure names them by
   */
  @API(status = INTERNAL)
  public DeploymentLevelsAssert(DeploymentLevels actual, String subject) {
    super(actual, DeploymentLevelsAssert.class);
    this.subject = subject;
  }

  /**
   * The deployment the following assertions are about.
   *
   * @param name a deployment of the comparison
   * @return assertions on that deployment at this load
   */
  public DeploymentLevelsAssert deployment(String name) {
    isNotNull();
    return new DeploymentLevelsAssert(actual, known(name));
  }

  /**
   * Output throughput is not lower than {@code reference}'s beyond noise.
   *
   * @return this assertion
   * @param reference the deployment it is compared with
   */
  public DeploymentLevelsAssert isAtLeastAsFastAs(String reference) {
    return isAtLeastAsFastAs(reference, 0);
  }

  /**
   * Output throughput is not lower than {@code reference}'s by more than {@code tolerance} (0.05 for 5%) beyond noise.
   *
   * @return this assertion
   * @param reference the deployment it is compared with
   * @param tolerance the share by which it may be lower, 0.05 for 5%
   */
  public DeploymentLevelsAssert isAtLeastAsFastAs(String reference, double tolerance) {
    return notWorse(reference, Metric.OUTPUT_THROUGHPUT, 50, tolerance, "slower than");
  }

  /**
   * The latency's {@code percentile} is not higher than {@code reference}'s beyond noise.
   *
   * @return this assertion
   * @param reference the deployment it is compared with
   * @param latency the latency metric, such as {@link Metric#TTFT}
   * @param percentile the percentile compared, e.g. 90
   */
  public DeploymentLevelsAssert hasLatencyAtMostThatOf(String reference, Metric latency, double percentile) {
    return hasLatencyAtMostThatOf(reference, latency, percentile, 0);
  }

  /**
   * The latency's {@code percentile} is not higher than {@code reference}'s by more than {@code tolerance} beyond noise.
   *
   * @return this assertion
   * @param reference the deployment it is compared with
   * @param latency the latency metric, such as {@link Metric#TTFT}
   * @param percentile the percentile compared, e.g. 90
   * @param tolerance the share by which it may be higher, 0.05 for 5%
   */
  public DeploymentLevelsAssert hasLatencyAtMostThatOf(String reference, Metric latency, double percentile, double tolerance) {
    if (!latency.isLatency()) throw new IllegalArgumentException(latency + " is not a latency; use isAtLeastAsFastAs for throughput");
    return notWorse(reference, latency, percentile, tolerance, "slower in " + latency.label() + " than");
  }

  private DeploymentLevelsAssert notWorse(String reference, Metric metric, double percentile, double tolerance, String what) {
    isNotNull();
    if (subject == null) throw new IllegalStateException("name the deployment first: assertThat(levels).deployment(\"b\")...");
    if (!(tolerance >= 0 && tolerance < 1)) {
      throw new IllegalArgumentException("the tolerance is a fraction in [0, 1), e.g. 0.05 for 5%; was " + tolerance);
    }
    Optional<Delta> delta = actual.delta(subject, known(reference), metric, percentile, tolerance);
    if (delta.isPresent() && delta.get().verdict() == Delta.Verdict.REGRESSED) {
      failWithMessage("[%s] %s is %s %s beyond noise%s: %s", actual.load(), subject, what, reference,
          tolerance > 0 ? " and by more than " + Formats.percent(tolerance) : "", delta.get());
    }
    return this;
  }

  private String known(String name) {
    if (!actual.deployments().contains(name)) {
      throw new IllegalArgumentException("no deployment '" + name + "' in this sweep; it compares " + actual.deployments());
    }
    return name;
  }
}
