/**
 * Prompts other than {@code @Workload}'s synthetic ones: a file of your own traffic ({@link Dataset}), a
 * recorded trace ({@link Trace}, replayed at its own clock with {@code @TraceReplay}), the shared-prefix
 * workload ({@link SharedPrefix}), and prompts of an exact token length ({@link ExactInputTokens}, with
 * what aligning them did: {@link InputAlignment}), multi-turn conversations ({@link Sessions}), agents'
 * requests ({@link ToolCalls}, {@link StructuredOutput}) and embeddings ({@link Embeddings}).
 *
 * <p>You need it when the load should look like yours.
 */
package dev.llmbench.workload;
