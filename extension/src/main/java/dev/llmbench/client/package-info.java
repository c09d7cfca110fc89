/**
 * One request and its reply, for tests that talk to the endpoint through the injected {@code LlmClient}
 * (smoke prompts, checks of content) and for a level's per-request records: {@link CompletionRequest} of
 * {@link ChatMessage}s sent over an {@link ApiStyle}, the {@link LlmReply} with its {@link Usage}, each
 * request's {@link RequestResult} (its tokens counted as {@link TokenSource} says), a {@link RequestFailure}
 * of an {@link ErrorKind}, and {@link LlmHttpException} when a call of the client fails.
 *
 * <p>You need it when a test sends its own requests, or reads a level's requests one by one.
 */
package dev.llmbench.client;
