package dev.llmbench;

import dev.llmbench.internal.client.Excerpt;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.AllureSupport;

/**
 * Injected into tests of an {@link LlmEndpoint} class for ad-hoc requests such as smoke prompts.
 * Requests stream by default, so that a reply carries its TTFT; each shows as a step in Allure with the
 * prompt, the reply and the reasoning attached.
 */
public final class LlmClient {

  /** Greedy decoding, so that smoke answers repeat. */
  public static final double DEFAULT_TEMPERATURE = 0.0;
  public static final int DEFAULT_MAX_TOKENS = 1024;

  private final LiveEndpoint endpoint;
  private final EndpointInfo info;

  LlmClient(LiveEndpoint endpoint, EndpointInfo info) {
    this.endpoint = endpoint;
    this.info = info;
  }

  /** Sends one user message with temperature 0 and up to {@value #DEFAULT_MAX_TOKENS} tokens. */
  public LlmReply chat(String prompt) {
    return send(CompletionRequest.of(prompt).withTemperature(DEFAULT_TEMPERATURE).withMaxTokens(DEFAULT_MAX_TOKENS));
  }

  /**
   * Sends a request as it is.
   *
   * @throws LlmHttpException when it fails, with the status and an excerpt of the server's answer
   */
  public LlmReply send(CompletionRequest request) {
    String prompt = request.prompt();
    return AllureSupport.step("Prompt: " + Excerpt.of(prompt, 60), () -> {
      AllureSupport.attach("prompt", "text/plain", "txt", prompt);
      RequestTrace trace = endpoint.client().send(info.api(), info.model(), request);
      if (!trace.succeeded()) {
        AllureSupport.attach("error", "text/plain", "txt", trace.error().key() + ": " + trace.error().message());
        throw new LlmHttpException(endpoint.client().url(info.api().path()), trace.error());
      }
      LlmReply reply = new LlmReply(prompt, RequestMetrics.of(trace));
      AllureSupport.attach("reply", "text/plain", "txt", reply.content());
      if (!reply.reasoning().isEmpty()) AllureSupport.attach("reasoning", "text/plain", "txt", reply.reasoning());
      return reply;
    });
  }

  public EndpointInfo endpoint() {
    return info;
  }

  /** Stable across runs (Allure records it as a parameter): the model and URL, never the key. */
  @Override
  public String toString() {
    return "LlmClient[" + info + "]";
  }
}
