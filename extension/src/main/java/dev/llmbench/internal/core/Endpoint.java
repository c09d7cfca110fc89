package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.internal.client.ConnectionOptions;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.Timeouts;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerExitedException;
import dev.llmbench.internal.startup.ServerLaunchException;
import dev.llmbench.internal.startup.ServerLog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One endpoint for the whole run: the server (the embedded engine, one the run launched, or one that runs
 * elsewhere), its clients, and the outcome of the one readiness wait ({@link ReadinessWait}). Starts nothing until first asked to
 * be ready, so that a launch failure is one failure for every test of the endpoint.
 */
@API(status = INTERNAL)
public final class Endpoint implements AutoCloseable {

  /** A 1-token completion may take long on a server's first request (kernels compiling, caches filling). */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);
  /** A health route answers at once or not at all: a TLS handshake with a plain-HTTP server must not wait a minute. */
  private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(10);

  private final EndpointSpec spec;
  private final BenchListener listener;
  private final Path reportDir;
  private EmbeddedLlmServer embedded;
  /** A server the run started: a process or a container. */
  private RunningServer launched;
  private ServerLog startupLog;
  private OpenAiClient client;
  private OpenAiClient probe;
  private OpenAiClient health;
  private EndpointInfo info;
  /** The routes the readiness waits probed, and those the server refused for good. */
  private final Set<EndpointRoute> probed = EnumSet.noneOf(EndpointRoute.class);
  private final Map<EndpointRoute, RouteRefusal> refused = new EnumMap<>(EndpointRoute.class);
  private RuntimeException notReady;
  private EndpointNotReadyException lost;

  /** @param reportDir where a launched server's log goes unless the launch names a file */
  public Endpoint(EndpointSpec spec, BenchListener listener, Path reportDir) {
    this.spec = spec;
    this.listener = listener;
    this.reportDir = reportDir;
  }

  public OpenAiClient client() {
    return client;
  }

  public EndpointSpec spec() {
    return spec;
  }

  /** Starts the server when the run owns one, and the clients. */
  private void start() {
    URI url;
    if (spec.server().isPresent()) {
      ServerStart.Started started = spec.server().get().start(spec.baseUrl(), reportDir, listener);
      launched = started.server();
      startupLog = spec.serverLogFile().map(ServerLog::follow).orElse(launched.log());
      url = started.url();
    } else if (spec.isEmbedded()) {
      embedded = EmbeddedLlmServer.start(spec.embedded());
      url = embedded.baseUrl();
    } else {
      url = spec.baseUrl();
    }
    if (startupLog == null) startupLog = spec.serverLogFile().map(ServerLog::follow).orElse(null);
    String key = System.getenv(spec.apiKeyEnv());
    Duration probeTimeout = PROBE_TIMEOUT.compareTo(spec.readyTimeout()) <= 0 ? PROBE_TIMEOUT : spec.readyTimeout();
    Timeouts load = Timeouts.of(spec.requestTimeout(), spec.idleTimeout());
    ConnectionOptions options;
    try {
      options = ConnectionOptions.of(url, key, spec.connection(), System::getenv, load.connect());
    } catch (IllegalArgumentException e) {
      throw new EndpointNotReadyException("LLM endpoint " + ConnectionOptions.redactUrl(url.toString())
          + " cannot be reached as configured: " + e.getMessage(), e);
    }
    // Every stream in flight on a few event loops: as many as cores, 2 to 4.
    this.client = new OpenAiClient(options, load, Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors())));
    this.probe = new OpenAiClient(options, Timeouts.of(probeTimeout, probeTimeout), 1);
    Duration healthTimeout = HEALTH_TIMEOUT.compareTo(probeTimeout) <= 0 ? HEALTH_TIMEOUT : probeTimeout;
    this.health = new OpenAiClient(options, Timeouts.of(healthTimeout, healthTimeout), 1);
  }

  /**
   * Waits, once per run, until the server answers its health route and one request on each of {@code routes} (a
   * 1-token completion, a 1-input embeddings request); later calls return the first outcome at once, failure
   * included, after probing the routes no call asked for before. A route the server refuses for good does not fail
   * this: {@link #refusal} says so to the tests that need it.
   *
   * @param routes the routes the asking tests will send to; none probes {@link EndpointRoute#GENERATION}, as a test
   *               of the endpoint alone means that it generates
   */
  public synchronized EndpointInfo ensureReady(Set<EndpointRoute> routes) {
    Set<EndpointRoute> asked = routes.isEmpty() ? EnumSet.of(EndpointRoute.GENERATION) : EnumSet.copyOf(routes);
    if (info != null) {
      asked.removeAll(probed);
      if (!asked.isEmpty()) {
        probed.addAll(asked);
        String requests = String.join(" and ", asked.stream().map(r -> r.request(spec.api())).toList());
        refused.putAll(Listeners.step(listener, "Probe " + requests + " of " + client.baseUrl(),
            () -> readinessWait(asked).awaitRoutes(info.model())));
      }
      return info;
    }
    if (notReady != null) throw new EndpointNotReadyException("not waited for again: " + notReady.getMessage(), notReady);
    try {
      try {
        start();
      } catch (ServerLaunchException e) {
        throw new EndpointNotReadyException("the server could not be launched: " + e.getMessage(), e);
      }
      ReadinessWait.Outcome outcome = Listeners.step(listener, "Wait until " + client.baseUrl() + " is ready",
          readinessWait(asked)::await);
      probed.addAll(asked);
      refused.putAll(outcome.refused());
      info = outcome.info();
      if (asked.contains(EndpointRoute.GENERATION) && !refused.containsKey(EndpointRoute.GENERATION)) askChunkUsage(info);
      listener.endpointReady(info);
      return info;
    } catch (RuntimeException e) {
      notReady = e;
      throw e;
    }
  }

  /**
   * Whether the server reports usage on every chunk when asked (vLLM's and SGLang's {@code continuous_usage_stats}):
   * then every streamed request asks, so that TPOT divides by the tokens after the first chunk, however many it
   * carried. The embedded engine streams one token a chunk and is not asked; a server that refuses the field is not
   * asked again, and nothing fails.
   */
  private void askChunkUsage(EndpointInfo ready) {
    if (embedded != null || ready.serverVersion().filter(v -> v.startsWith("llmbench-embedded")).isPresent()) return;
    try {
      Listeners.step(listener, "Ask " + client.baseUrl() + " for usage on every streamed chunk (continuous_usage_stats)",
          () -> client.detectChunkUsage(ready.api(), ready.model()));
    } catch (RuntimeException e) {
      // A probe that could not run leaves requests as they were: without the field.
    }
  }

  private ReadinessWait readinessWait(Set<EndpointRoute> routes) {
    return new ReadinessWait(spec, listener, client.baseUrl(), health, probe, launched, startupLog,
        embedded == null ? Optional.empty() : Optional.of(embedded.profile().name()), routes);
  }

  /** How the server refused {@code route} in the readiness wait, or empty when it passed or was never probed. */
  public synchronized Optional<RouteRefusal> refusal(EndpointRoute route) {
    return Optional.ofNullable(refused.get(route));
  }

  /** Throws the failure of a test that needs {@code route}, when the server refused it. */
  public void require(EndpointRoute route) {
    Optional<RouteRefusal> r = refusal(route);
    if (r.isPresent()) throw r.get().failure();
  }

  /**
   * Checks, before a level, that a server that was ready still answers at all (any HTTP status will do):
   * one that stopped answering, crashed or was killed, fails the level at once, and every later level
   * with the same cause, instead of each sending its requests into a closed port.
   *
   * @param after the level that ran last, for the message
   */
  public synchronized void ensureStillAnswering(String after) {
    if (info == null) throw new IllegalStateException("ensureStillAnswering before the endpoint was ready");
    if (lost != null) throw new EndpointNotReadyException("not tried again: " + lost.getMessage(), lost);
    try {
      if (launched != null) launched.checkRunning();
      health.get("/health");
    } catch (ServerExitedException e) {
      lost = new EndpointNotReadyException("the launched server stopped after " + after + ": " + e.getMessage(), e);
      throw lost;
    } catch (IOException | RuntimeException e) {
      lost = new EndpointNotReadyException("LLM endpoint " + client.baseUrl() + " stopped answering after " + after
          + " (" + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
          + "): the server may have crashed or been stopped; see its log", e);
      throw lost;
    }
  }

  @Override
  public void close() {
    if (client != null) client.close();
    if (probe != null) probe.close();
    if (health != null) health.close();
    if (embedded != null) embedded.close();
    if (launched != null) listener.serverStopped(launched.describe(), launched.stopAndDescribe());
    if (startupLog != null) startupLog.close();
  }

  @Override
  public String toString() {
    return client == null ? "endpoint " + ConnectionOptions.redactUrl(String.valueOf(spec.baseUrl())) : client.toString();
  }
}
