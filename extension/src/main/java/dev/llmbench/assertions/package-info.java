/**
 * The fluent assertions (AssertJ): {@code import static dev.llmbench.assertions.LlmBenchAssertions.assertThat}
 * and assert on a level ({@link SweepLevelResultAssert}), a sweep ({@link SweepResultAssert}), one figure
 * ({@link DistributionAssert}) or one reply ({@link LlmReplyAssert}); the same entry point also gives a feature's
 * assertions (deployments side by side, a capacity, quality), which live in the feature's package. A failure names
 * the level, the figure, the actual and the required value; {@code hasNoErrors()} and {@code meetsSlo()} list every
 * violation.
 *
 * <p>{@link LlmBenchAssertions} is the entry point; the other classes are what it returns.
 */
package dev.llmbench.assertions;
