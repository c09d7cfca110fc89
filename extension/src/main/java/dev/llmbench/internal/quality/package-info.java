/**
 * Quality beside speed: an eval as a sweep's requests ({@code @QualityEval}), each reply graded correct,
 * wrong or unparsed ({@link dev.llmbench.internal.quality.Grader}), accuracy per deployment and load with its
 * Wilson interval, deployments compared item by item on the same items (paired bootstrap, exact McNemar:
 * {@link dev.llmbench.internal.quality.QualityStats}), and the one page of the decision, accuracy against
 * throughput. Eval files are read by {@link dev.llmbench.internal.quality.EvalFiles} and checked whole before
 * any load; the generated sets live in {@code quality.sets}, which the embedded engine also reads.
 *
 * <p>The feature reports only through the typed seam of {@link dev.llmbench.internal.core.SweepFeature}: no
 * report names it. docs/quality.md is its user documentation.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
