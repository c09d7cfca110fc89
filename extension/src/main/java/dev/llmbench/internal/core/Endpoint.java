package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.internal.client.ConnectionOptions;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.launch.ContainerSpec;
import dev.llmbench.launch.Containers;
import dev.llmbench.internal.client.Timeouts;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.launch.LaunchCommand;
import dev.llmbench.launch.LaunchedServer;
import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerExitedException;
import dev.llmbench.internal.startup.ServerLaunchException;
import dev.llmbench.internal.startup.ServerLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import dev.llmbench.launch.LaunchSpec;

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
    if (spec.launch().isPresent()) {
      url = launch(spec.launch().get());
    } else if (spec.container().isPresent()) {
      url = startContainer(spec.container().get());
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

  private URI launch(LaunchSpec launch) {
    String port = launch.command().placeholders().contains("port") ? Integer.toString(LaunchCommand.freeLocalPort()) : null;
    if (port == null && spec.baseUrl() == null) {
      throw new ServerLaunchException("the launch command has no ${port} and llmbench.base-url is unset, so LLMBench "
          + "cannot know where the server listens; add --port ${port} (or the engine's own flag) to the command, or "
          + "set llmbench.base-url", null);
    }
    LaunchCommand command = launch.command().resolve(port == null ? Map.of() : Map.of("port", port));
    Path log = launch.logFile().orElse(reportDir.resolve("server-" + (port == null ? "launched" : port) + ".log"));
    LaunchedServer process = LaunchedServer.launch(command, log, ServerLog.DEFAULT_RECENT_LINES, launch.stopGrace());
    launched = process;
    startupLog = spec.serverLogFile().map(ServerLog::follow).orElse(launched.log());
    listener.serverLaunched(command.describe(), process.pid(), log);
    return spec.baseUrl() != null ? spec.baseUrl() : URI.create("http://127.0.0.1:" + port);
  }

  /** Starts the container (host network) as {@link #launch} starts a process: {@code ${port}} a free port. */
  private URI startContainer(ContainerSpec container) {
    String port = container.placeholders().contains("port") ? Integer.toString(LaunchCommand.freeLocalPort()) : null;
    if (port == null && spec.baseUrl() == null) {
      throw new ServerLaunchException("the container's command and environment have no ${port} and llmbench.base-url is "
          + "unset, so LLMBench cannot know where the server listens; add --port ${port} to the command (or the engine's "
          + "own way, e.g. OLLAMA_HOST=127.0.0.1:${port} in the environment), or set llmbench.base-url", null);
    }
    URI url = spec.baseUrl() != null ? spec.baseUrl() : URI.create("http://127.0.0.1:" + port);
    if (port == null) requireFreeLocalPort(url);
    ContainerSpec resolved = container.resolve(port == null ? Map.of() : Map.of("port", port));
    Path log = container.logFile().orElse(reportDir.resolve("container-" + (port == null ? portOf(url) : port) + ".log"));
    launched = Containers.start(resolved, log, ServerLog.DEFAULT_RECENT_LINES);
    startupLog = spec.serverLogFile().map(ServerLog::follow).orElse(launched.log());
    listener.containerStarted(launched.describe(), log);
    return url;
  }

  /**
   * A container on the host network that is told a fixed port: if something already answers there, the wait
   * would find that instead of the container's server (and the container's would fail to bind), so say so first.
   */
  private static void requireFreeLocalPort(URI url) {
    String host = url.getHost();
    if (!host.equals("127.0.0.1") && !host.equalsIgnoreCase("localhost") && !host.equals("[::1]")) return;
    int port = portOf(url);
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host.equals("[::1]") ? "::1" : "127.0.0.1", port), 1000);
    } catch (IOException e) {
      return; // refused: free
    }
    throw new ServerLaunchException("port " + port + " on 127.0.0.1 is already taken: something listens there before "
        + "the container starts, so its server could not bind it and the readiness wait would measure the other one. Stop "
        + "what listens there (ss -ltnp 'sport = :" + port + "' shows it), or put ${port} in the container's command "
        + "(and leave llmbench.base-url unset) so that LLMBench picks a free port; no container was started", null);
  }

  private static int portOf(URI url) {
    return url.getPort() != -1 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
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
      listener.endpointReady(info);
      return info;
    } catch (RuntimeException e) {
      notReady = e;
      throw e;
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
