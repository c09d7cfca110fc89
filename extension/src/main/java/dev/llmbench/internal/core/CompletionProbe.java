package dev.llmbench.internal.core;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import java.io.IOException;

/**
 * A 1-token completion for the model succeeds: the model is loaded, not only the port open (the lesson of
 * Testcontainers' Ollama module). A 404, 400 or 422 names the model and the API style to check; a 501, or an
 * error object in a 200 (vLLM's pooling runner, by version), says the server does not generate.
 */
final class CompletionProbe implements ReadinessProbe {

  private final OpenAiClient probe;
  private final EndpointSpec config;
  private final ReadinessRules rules;

  CompletionProbe(OpenAiClient probe, EndpointSpec config, ReadinessRules rules) {
    this.probe = probe;
    this.config = config;
    this.rules = rules;
  }

  @Override
  public boolean passes(ReadinessState state) {
    ReadinessLog log = state.log;
    RequestTrace t = probe.send(config.api(), state.model, CompletionRequest.of("Hi").withMaxTokens(1).withStream(false),
        TextCapture.NONE);
    if (!t.succeeded()) {
      log.saw("a 1-token completion failed: " + t.failure());
      int status = t.failure().status();
      String answered = "answered " + t.failure();
      rules.refused(status, "POST " + config.api().path());
      if (status == 404 || status == 400 || status == 422) {
        throw new CannotBecomeReadyException("a 1-token completion to " + config.api().path() + " for model '" + state.model
            + "' " + answered + "; check llmbench.model (the server lists " + listedModels() + ") and llmbench.api (chat "
            + "or completions); a server that only embeds has no such route (vLLM's pooling runner, TEI): measure it with "
            + "@Embeddings sweeps", null, answered);
      }
      if (ReadinessRules.clientError(status)) {
        throw new CannotBecomeReadyException("a 1-token completion to " + config.api().path() + " " + answered
            + ", a client error that waiting does not change; check llmbench.base-url and llmbench.api (chat or "
            + "completions)", null, answered);
      }
      if (ReadinessRules.refusesRoute(t.failure())) {
        throw new CannotBecomeReadyException("a 1-token completion to " + config.api().path() + " " + answered + ": the server "
            + "does not generate, which waiting does not change (vLLM serving an embedding model, the pooling runner, "
            + "answers so); measure its embeddings with @Embeddings sweeps, or set llmbench.base-url to a server that "
            + "generates", null, answered);
      }
      return false;
    }
    return true;
  }

  private String listedModels() {
    try {
      return probe.modelIds().toString();
    } catch (IOException | RuntimeException e) {
      return "no models";
    }
  }
}
