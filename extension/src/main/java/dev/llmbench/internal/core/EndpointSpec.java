package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.internal.client.ConnectionSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * An endpoint's spec: its resolved settings. Two tests with equal specs share one endpoint (one embedded engine,
 * one readiness wait), so the record itself is the endpoint's identity.
 *
 * @param baseUrl       the server root, or null for the embedded engine (or, when launching, 127.0.0.1 at the port)
 * @param embedded      how to start the embedded engine, used when there is neither a base URL nor a server to start
 * @param model         the model id, or empty for the first id {@code /v1/models} lists
 * @param server        a server the run starts itself (a process, a container), as a feature resolved it
 * @param serverLogFile a log to read the startup phases from, for a server started elsewhere
 * @param networkSamples round trips timed once the endpoint is ready (the network baseline); 0 for none
 * @param connection    how to reach a real deployment: extra headers, TLS trust, proxy
 * @param urlSource     where the base URL came from, for messages: {@code system property llmbench.base-url},
 *                      {@code environment variable LLMBENCH_BASE_URL}, {@code @LlmEndpoint(baseUrl)}, a deployment; empty
 *                      without one
 */
@API(status = INTERNAL)
public record EndpointSpec(
    URI baseUrl,
    String model,
    ApiStyle api,
    String apiKeyEnv,
    Duration readyTimeout,
    Duration readyPollInterval,
    Duration readyProgressInterval,
    Duration requestTimeout,
    Duration idleTimeout,
    EmbeddedOptions embedded,
    Optional<ServerStart> server,
    Optional<Path> serverLogFile,
    int networkSamples,
    ConnectionSettings connection,
    String urlSource) {

  public boolean isEmbedded() {
    return baseUrl == null && server.isEmpty();
  }
}
