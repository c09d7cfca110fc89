package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmClient;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.client.LlmHttpException;
import dev.llmbench.client.LlmReply;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Excerpt;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The {@link LlmClient} tests receive: ad-hoc requests to a ready endpoint, each reported as a step.
 *
 * @param target   the endpoint requests go to
 * @param endpoint what the readiness wait found out about it
 * @param listener where each prompt is reported
 */
@API(status = INTERNAL)
public record EndpointLlmClient(Endpoint target, EndpointInfo endpoint, BenchListener listener) implements LlmClient {

  @Override
  public LlmReply send(CompletionRequest request) {
    String prompt = request.prompt();
    return Listeners.step(listener, "Prompt: " + Excerpt.of(prompt, 60), () -> {
      listener.promptSent(prompt);
      RequestTrace trace = target.client().send(endpoint.api(), endpoint.model(), request);
      if (!trace.succeeded()) {
        listener.requestFailed(trace.failure());
        throw new LlmHttpException(target.client().url(endpoint.api().path()), trace.failure());
      }
      LlmReply reply = new LlmReply(prompt, trace.content(), trace.reasoning(), Optional.ofNullable(trace.finishReason()),
          Optional.ofNullable(trace.usage()), RequestMetrics.of(trace));
      listener.replyReceived(reply);
      return reply;
    });
  }

  /** Stable across runs (Allure records it as a parameter): the model and URL, never the key. */
  @Override
  public String toString() {
    return "LlmClient[" + endpoint + "]";
  }
}
