package dev.llmbench.internal.core;

import dev.llmbench.internal.client.OpenAiClient;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** What one readiness wait learns as it polls, handed from probe to probe: its log, the health route, the model. */
final class ReadinessState {

  // Awaitility polls on its own thread; the caller reads the model and route after the wait.

  final ReadinessLog log = new ReadinessLog();
  /** The model id: the configured one, else the first the server lists, once it lists one. */
  volatile String model;
  /** The route the server's health answered on: {@code /health}, or {@code /v1/models} where there is none. */
  volatile String healthRoute = "/health";
  /**
   * Whether anything at the address took a connection: an HTTP answer, or a failure after connecting (a reset, a read
   * timeout). False while every attempt was refused or never connected, as at a port where nothing listens.
   */
  volatile boolean reached;
  /** This poll's answer on the health route. */
  volatile Optional<OpenAiClient.HttpAnswer> health = Optional.empty();

  /** The routes whose probe passed. */
  final Set<EndpointRoute> passed = ConcurrentHashMap.newKeySet();
  /** The routes the server refused for good, each with the refusal. */
  final Map<EndpointRoute, CannotBecomeReadyException> refused = new ConcurrentHashMap<>();

  ReadinessState(String model) {
    this.model = model;
  }
}
