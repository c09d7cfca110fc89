package dev.llmbench.internal.core;

import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import java.util.List;

/**
 * A 1-input embeddings request for the model comes back with a vector: the readiness of a class that sends
 * embeddings, in place of (or beside) the 1-token completion, since a server that only embeds has no
 * generation route. A route that is not served fails with what to start the server with.
 */
final class EmbeddingsProbe implements ReadinessProbe {

  private final OpenAiClient probe;
  private final ReadinessRules rules;

  EmbeddingsProbe(OpenAiClient probe, ReadinessRules rules) {
    this.probe = probe;
    this.rules = rules;
  }

  @Override
  public boolean passes(ReadinessState state) {
    RequestTrace t = probe.embedAsync(state.model, List.of("Hi"), System.nanoTime()).join();
    if (t.succeeded() && t.embeddings() > 0) return true;
    String answered = t.succeeded() ? "answered without an embedding (no \"data\" vectors)" : "answered " + t.failure();
    state.log.saw("a 1-input embeddings request " + answered);
    if (!t.succeeded()) {
      rules.refused(t.failure().status(), "POST " + OpenAiClient.EMBEDDINGS);
      if (!ReadinessRules.refusesRoute(t.failure())) return false;
    }
    throw new CannotBecomeReadyException("a 1-input embeddings request to POST " + OpenAiClient.EMBEDDINGS + " for model '"
        + state.model + "' " + answered + ", which waiting does not change; serve embeddings there (llama-server "
        + "--embeddings --pooling mean; vLLM with an embedding model, --runner pooling), or remove @Embeddings", null,
        answered);
  }
}
