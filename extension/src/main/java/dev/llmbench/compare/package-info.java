/**
 * Comparisons beside a sweep: with a stored {@link Baseline} (its {@link BaselineComparison} of
 * {@link Delta}s), of several {@link Deployment}s at the same load ({@link DeploymentLevels}), the highest
 * load that still meets the SLO ({@link CapacitySearch}, found as a {@link Capacity}), and the quality of
 * the answers beside their speed ({@link QualityEval}, {@link Quality}, {@link Accuracy},
 * {@link QualityComparison}).
 *
 * <p>You need it when the question is not one sweep's figures but how they compare.
 */
package dev.llmbench.compare;
