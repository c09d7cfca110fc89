package dev.llmbench.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.AfterSweep;
import dev.llmbench.LlmClient;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.capacity.Capacity;
import dev.llmbench.capacity.CapacityAssert;
import dev.llmbench.client.LlmReply;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.deployments.DeploymentLevelsAssert;
import dev.llmbench.quality.Quality;
import dev.llmbench.quality.QualityAssert;
import dev.llmbench.quality.QualityEval;
import org.apiguardian.api.API;

/**
 * The AssertJ entry point: {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;} beside
 * AssertJ's own.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class LlmBenchAssertions {

  private LlmBenchAssertions() {}

  /**
   * {@return assertions on one measured level of a sweep}
   *
   * @param actual the level, as injected into the sweep method
   */
  public static SweepLevelResultAssert assertThat(SweepLevelResult actual) {
    return new SweepLevelResultAssert(actual, false);
  }

  /**
   * Assertions on how the deployments of a comparison fare at one load.
   *
   * @param actual the deployments' levels at one load, as injected into the sweep method
   * @return assertions on them
   */
  public static DeploymentLevelsAssert assertThat(DeploymentLevels actual) {
    return new DeploymentLevelsAssert(actual, null);
  }

  /**
   * Assertions on what a capacity search found.
   *
   * @param actual what the search found, as injected into its last test
   * @return assertions on it
   */
  public static CapacityAssert assertThat(Capacity actual) {
    return new CapacityAssert(actual);
  }

  /**
   * Assertions on a whole sweep, for a method annotated {@link AfterSweep}.
   *
   * @param actual the sweep, as injected into the method
   * @return assertions on it
   */
  public static SweepResultAssert assertThat(SweepResult actual) {
    return new SweepResultAssert(actual);
  }

  /**
   * {@return assertions on what an eval found at one load}
   *
   * @param actual the {@link QualityEval}'s result at a level, injected beside the level
   */
  public static QualityAssert assertThat(Quality actual) {
    return new QualityAssert(actual);
  }

  /**
   * {@return assertions on one reply to a prompt}
   *
   * @param actual the reply, as {@link LlmClient} returns it
   */
  public static LlmReplyAssert assertThat(LlmReply actual) {
    return new LlmReplyAssert(actual);
  }
}
