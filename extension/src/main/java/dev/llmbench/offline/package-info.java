/**
 * The analysis of results that already exist ({@link SweepAnalysis}): a CSV table, {@code vllm bench serve} result
 * files, or an earlier LLMBench sweep's folder, read into the same readings and findings a live sweep gets.
 */
package dev.llmbench.offline;
