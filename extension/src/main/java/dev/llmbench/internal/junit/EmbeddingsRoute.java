package dev.llmbench.internal.junit;

import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.load.LevelPlan;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Before an embeddings level's load: one input to {@code /v1/embeddings}, so that a server without the route fails
 * the sweep at once with what to start it with, instead of counting every request of every level as an error.
 */
final class EmbeddingsRoute {

  private EmbeddingsRoute() {}

  static void check(ExtensionContext context, Endpoint endpoint, EndpointInfo info, LevelPlan plan) {
    RequestTrace t = endpoint.client().embedAsync(info.model(), List.of("ping"), System.nanoTime()).join();
    if (t.succeeded() && t.embeddings() > 0) return;
    String answered = t.succeeded() ? "answered without an embedding (no \"data\" vectors)" : "answered " + t.failure();
    throw new ExtensionConfigurationException("Configuration error: sweep on method ["
        + ConfigurationErrors.where(context.getRequiredTestMethod()) + "], " + plan.label() + ": @Embeddings sends to POST "
        + OpenAiClient.EMBEDDINGS + ", but " + endpoint.client().url(OpenAiClient.EMBEDDINGS) + " " + answered
        + ", so no load was sent: serve embeddings there (llama-server --embeddings --pooling mean; vLLM with an embedding model, "
        + "--runner pooling), or remove @Embeddings");
  }
}
