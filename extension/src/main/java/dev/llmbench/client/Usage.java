package dev.llmbench.client;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The server's own token counts from {@code usage}; a field the server did not send is null.
 *
 * @param promptTokens     {@code prompt_tokens}
 * @param completionTokens {@code completion_tokens}, reasoning included
 * @param reasoningTokens  {@code completion_tokens_details.reasoning_tokens}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Usage(Integer promptTokens, Integer completionTokens, Integer reasoningTokens) {}
