package dev.llmbench.internal.junit;

import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointRoute;
import dev.llmbench.internal.core.RouteRefusal;
import dev.llmbench.internal.load.LevelPlan;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Before an embeddings level's load: a server whose readiness wait refused {@code /v1/embeddings} fails the level at
 * once with what to start it with, instead of counting every request of every level as an error.
 */
final class EmbeddingsRoute {

  private EmbeddingsRoute() {}

  static void check(ExtensionContext context, Endpoint endpoint, LevelPlan plan) {
    Optional<RouteRefusal> refused = endpoint.refusal(EndpointRoute.EMBEDDINGS);
    if (refused.isEmpty()) return;
    throw new ExtensionConfigurationException("Configuration error: sweep on method ["
        + ConfigurationErrors.where(context.getRequiredTestMethod()) + "], " + plan.label() + ": @Embeddings sends to POST "
        + OpenAiClient.EMBEDDINGS + ", but " + endpoint.client().url(OpenAiClient.EMBEDDINGS) + " " + refused.get().answered()
        + ", so no load was sent: serve embeddings there (llama-server --embeddings --pooling mean; vLLM with an embedding model, "
        + "--runner pooling), or remove @Embeddings", refused.get().failure());
  }
}
