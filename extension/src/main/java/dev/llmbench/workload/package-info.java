/**
 * Request shapes beside {@code @Workload}'s synthetic prompts: prompts of an exact token length
 * ({@link ExactInputTokens}), the shared-prefix workload ({@link SharedPrefix}), agents' requests
 * ({@link ToolCalls}, {@link StructuredOutput}, their replies checked) and embeddings ({@link Embeddings}). Files of
 * your own traffic are {@code dev.llmbench.datasets}, traces {@code dev.llmbench.trace}, conversations
 * {@code dev.llmbench.sessions}.
 *
 * <p>You need it when the load should look like yours.
 */
package dev.llmbench.workload;
