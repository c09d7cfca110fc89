package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.CompletionRequest;
import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmHttpException;
import dev.llmbench.LlmReply;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Excerpt;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.Optional;
import org.apiguardian.api.API;

/** The {@link LlmClient} tests receive: ad-hoc requests to a ready endpoint, each reported as a step. */
@API(status = INTERNAL)
public final class EndpointLlmClient implements LlmClient {

  private final Endpoint endpoint;
  private final EndpointInfo info;
  private final BenchListener listener;

  public EndpointLlmClient(Endpoint endpoint, EndpointInfo info, BenchListener listener) {
    this.endpoint = endpoint;
    this.info = info;
    this.listener = listener;
  }

  @Override
  public LlmReply send(CompletionRequest request) {
    String prompt = request.prompt();
    return Listeners.step(listener, "Prompt: " + Excerpt.of(prompt, 60), () -> {
      listener.promptSent(prompt);
      RequestTrace trace = endpoint.client().send(info.api(), info.model(), request);
      if (!trace.succeeded()) {
        listener.requestFailed(trace.failure());
        throw new LlmHttpException(endpoint.client().url(info.api().path()), trace.failure());
      }
      LlmReply reply = new LlmReply(prompt, trace.content(), trace.reasoning(), Optional.ofNullable(trace.finishReason()),
          Optional.ofNullable(trace.usage()), RequestMetrics.of(trace));
      listener.replyReceived(reply);
      return reply;
    });
  }

  @Override
  public EndpointInfo endpoint() {
    return info;
  }

  /** Stable across runs (Allure records it as a parameter): the model and URL, never the key. */
  @Override
  public String toString() {
    return "LlmClient[" + info + "]";
  }
}
