package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ApiStyle;
import dev.llmbench.internal.embedded.PerformanceProfile;
import java.net.URI;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * An endpoint's resolved settings. Two tests with equal configs share one endpoint (one embedded engine,
 * one readiness wait), so the record itself is the endpoint's identity.
 *
 * @param baseUrl the server root, or null for the embedded engine
 * @param model   the model id, or empty for the first id {@code /v1/models} lists
 * @param networkSamples round trips timed once the endpoint is ready (the network baseline); 0 for none
 */
@API(status = INTERNAL)
public record EndpointConfig(
    URI baseUrl,
    String model,
    ApiStyle api,
    String apiKeyEnv,
    Duration readyTimeout,
    Duration readyPollInterval,
    Duration readyProgressInterval,
    Duration requestTimeout,
    Duration idleTimeout,
    PerformanceProfile embeddedProfile,
    Duration embeddedStartupDelay,
    int networkSamples) {

  public boolean isEmbedded() {
    return baseUrl == null;
  }
}
