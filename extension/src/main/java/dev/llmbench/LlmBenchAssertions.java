package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The AssertJ entry point: {@code import static dev.llmbench.LlmBenchAssertions.assertThat;} beside
 * AssertJ's own.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class LlmBenchAssertions {

  private LlmBenchAssertions() {}

  public static SweepLevelResultAssert assertThat(SweepLevelResult actual) {
    return new SweepLevelResultAssert(actual, false);
  }

  /** Assertions on how the deployments of a comparison fare at one load. */
  public static DeploymentLevelsAssert assertThat(DeploymentLevels actual) {
    return new DeploymentLevelsAssert(actual, null);
  }

  /** Assertions on what a capacity search found. */
  public static CapacityAssert assertThat(Capacity actual) {
    return new CapacityAssert(actual);
  }

  /** Assertions on a whole sweep, for a method annotated {@link AfterSweep}. */
  public static SweepResultAssert assertThat(SweepResult actual) {
    return new SweepResultAssert(actual);
  }

  public static LlmReplyAssert assertThat(LlmReply actual) {
    return new LlmReplyAssert(actual);
  }
}
