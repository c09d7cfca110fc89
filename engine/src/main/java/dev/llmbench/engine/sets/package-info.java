/**
 * The eval sets LLMBench generates itself, deterministically, with answers it computes: arithmetic word
 * problems (GSM8K-style), multiple choice over computed facts, exact-match string tasks, and a mixed set
 * with an item for every grader. Item {@code i} of a kind is a pure function of the kind and {@code i}, so
 * a run on a fresh machine sends the same questions as every other run, and the embedded engine can
 * recognise an item by its prompt ({@link dev.llmbench.engine.sets.GeneratedSets#byPrompt}) to
 * answer it right or wrong with a profile's probability. Plain data only: this package depends on nothing
 * of LLMBench's, so that the embedded engine can use it without depending on the quality feature.
 */
@API(status = INTERNAL)
package dev.llmbench.engine.sets;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
