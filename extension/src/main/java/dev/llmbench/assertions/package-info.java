/**
 * The fluent assertions (AssertJ): {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat}
 * and assert on a level ({@link SweepLevelResultAssert}), a sweep ({@link SweepResultAssert}), one figure
 * ({@link DistributionAssert}), deployments side by side ({@link DeploymentLevelsAssert}), a capacity
 * ({@link CapacityAssert}), quality ({@link QualityAssert}) or one reply ({@link LlmReplyAssert}). A failure
 * names the level, the figure, the actual and the required value; {@code hasNoErrors()} and
 * {@code meetsSlo()} list every violation.
 *
 * <p>{@link LlmBenchAssertions} is the entry point; the other classes are what it returns.
 */
package dev.llmbench.assertions;
