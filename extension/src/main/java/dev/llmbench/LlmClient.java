package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.client.LlmHttpException;
import dev.llmbench.client.LlmReply;
import org.apiguardian.api.API;

/**
 * Injected into tests of an {@link LlmEndpoint} class for ad-hoc requests such as smoke prompts.
 * Requests stream by default, so that a reply carries its TTFT; each shows as a step in Allure with the
 * prompt, the reply and the reasoning attached. LLMBench implements this interface.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface LlmClient {

  /** Greedy decoding, so that smoke answers repeat. */
  double DEFAULT_TEMPERATURE = 0.0;
  /** The {@code max_tokens} of {@link #chat(String)}. */
  int DEFAULT_MAX_TOKENS = 1024;

  /**
   * Sends one user message with temperature 0 and up to {@value #DEFAULT_MAX_TOKENS} tokens.
   *
   * @param prompt the user message's text
   * @return the reply, once it is complete
   */
  default LlmReply chat(String prompt) {
    return send(CompletionRequest.of(prompt).withTemperature(DEFAULT_TEMPERATURE).withMaxTokens(DEFAULT_MAX_TOKENS));
  }

  /**
   * Sends a request as it is.
   *
   * @throws LlmHttpException when it fails, with the status and an excerpt of the server's answer
   * @param request the request, sent to the endpoint's API style
   * @return the reply, once it is complete
   */
  LlmReply send(CompletionRequest request);

  /** {@return the endpoint this client sends to} */
  EndpointInfo endpoint();
}
