/**
 * Quantisation drift without an eval: the same prompts, greedy, on each deployment of a sweep, each candidate's
 * replies compared token by token with the reference deployment's ({@link dev.llmbench.drift.Drift}); docs/drift.md.
 */
package dev.llmbench.drift;
