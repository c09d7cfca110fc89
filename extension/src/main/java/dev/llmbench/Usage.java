package dev.llmbench;

/**
 * The server's own token counts from {@code usage}; a field the server did not send is null.
 *
 * @param promptTokens     {@code prompt_tokens}
 * @param completionTokens {@code completion_tokens}, reasoning included
 * @param reasoningTokens  {@code completion_tokens_details.reasoning_tokens}
 */
public record Usage(Integer promptTokens, Integer completionTokens, Integer reasoningTokens) {}
