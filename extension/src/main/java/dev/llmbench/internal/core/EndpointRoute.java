package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.internal.client.OpenAiClient;
import org.apiguardian.api.API;

/**
 * A route a test class will send its requests to, so that the readiness wait probes what the class asks and
 * nothing else: a server that only embeds (vLLM's pooling runner, TEI) has no generation route to probe.
 */
@API(status = INTERNAL)
public enum EndpointRoute {
  /** The configured API's route, {@code /v1/chat/completions} or {@code /v1/completions}: a 1-token completion. */
  GENERATION,
  /** {@code /v1/embeddings}: one input. */
  EMBEDDINGS;

  /** The route as a request line, e.g. {@code POST /v1/embeddings}. */
  String request(ApiStyle api) {
    return "POST " + (this == GENERATION ? api.path() : OpenAiClient.EMBEDDINGS);
  }
}
