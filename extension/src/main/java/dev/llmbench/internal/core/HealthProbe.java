package dev.llmbench.internal.core;

import dev.llmbench.internal.client.OpenAiClient;
import java.io.IOException;
import java.util.Optional;

/** The server's health route answers 200: {@code /health}, or {@code /v1/models} on a server without one. */
final class HealthProbe implements ReadinessProbe {

  private final OpenAiClient health;
  private final ReadinessRules rules;

  HealthProbe(OpenAiClient health, ReadinessRules rules) {
    this.health = health;
    this.rules = rules;
  }

  @Override
  public boolean passes(ReadinessState state) throws IOException {
    ReadinessLog log = state.log;
    String route = "/health";
    Optional<OpenAiClient.HttpAnswer> health = this.health.get(route);
    if (health.isPresent() && health.get().status() == 404) {
      route = "/v1/models";
      health = this.health.get(route);
      if (health.isPresent() && health.get().status() == 404) {
        log.saw("GET /health and GET /v1/models answered 404");
        throw new CannotBecomeReadyException("GET /health and GET /v1/models both answered 404, so no OpenAI-compatible "
            + "server is at this address; set llmbench.base-url to the server's root, e.g. http://host:8000", null);
      }
    }
    if (health.isPresent()) state.reached = true;
    state.healthRoute = route;
    state.health = health;
    return rules.answeredOk(log, "GET " + route, health);
  }
}
