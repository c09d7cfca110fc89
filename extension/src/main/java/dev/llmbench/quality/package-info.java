/**
 * The quality of the answers beside their speed: an eval set graded at each level ({@link QualityEval}), read as
 * {@link Quality} and {@link Accuracy}, compared between deployments ({@link QualityComparison}) and asserted with
 * {@link QualityAssert}.
 */
package dev.llmbench.quality;
