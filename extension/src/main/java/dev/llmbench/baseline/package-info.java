/**
 * The run compared with a saved one ({@link Baseline}): each level's figures against the baseline's, noise-aware,
 * as a {@link BaselineComparison} a level's method may take; the gate that fails a regression.
 */
package dev.llmbench.baseline;
