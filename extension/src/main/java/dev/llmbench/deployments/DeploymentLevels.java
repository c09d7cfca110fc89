package dev.llmbench.deployments;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Delta;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One load of a sweep that compares {@link Deployment}s: the level of each deployment measured so far at
 * this load, the current one included. Inject it beside the {@link SweepLevelResult} and assert how the
 * deployments compare, noise-aware:
 *
 * <pre>{@code
 * void compare(SweepLevelResult level, DeploymentLevels atThisLoad) {
 *   assertThat(atThisLoad).deployment("gqa").isAtLeastAsFastAs("mla");
 * }
 * }</pre>
 *
 * <p>At each load the deployments run in the order they are declared, so a comparison of two is decided
 * in the test of whichever runs later, and every load is checked once. Its {@link Object#toString()}
 * names the load only, so that reports recording parameters see the same value every run.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface DeploymentLevels {

  /** {@return the load, as levels are named without the deployment: {@code C=8}} */
  String load();

  /** {@return every deployment of the sweep, in declared order} */
  List<String> deployments();

  /**
   * {@return the deployment's level at this load, once measured}
   *
   * @param deployment the deployment's name
   */
  Optional<SweepLevelResult> of(String deployment);

  /**
   * {@return how {@code metric} changed from {@code reference} to {@code candidate} at this load, noise-aware, once
   * both are measured; a latency at {@code percentile}, a single value (throughput) ignores it}
   *
   * @param allowedWorsening the worsening that is not yet {@link Delta.Verdict#REGRESSED}, a fraction
   * @param candidate the deployment compared
   * @param reference the deployment it is compared with
   * @param metric the figure compared
   * @param percentile the percentile of a latency metric; ignored for a single-valued one
   */
  Optional<Delta> delta(String candidate, String reference, Metric metric, double percentile, double allowedWorsening);
}
