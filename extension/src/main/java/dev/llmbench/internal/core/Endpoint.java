package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.CompletionRequest;
import dev.llmbench.EndpointInfo;
import dev.llmbench.EndpointNotReadyException;
import dev.llmbench.RoundTrip;
import dev.llmbench.ServerStartup;
import dev.llmbench.internal.client.ConnectionOptions;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.container.ContainerSpec;
import dev.llmbench.internal.container.Containers;
import dev.llmbench.internal.client.Timeouts;
import dev.llmbench.internal.embedded.EmbeddedLlmServer;
import dev.llmbench.internal.format.Excerpt;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.launch.Engine;
import dev.llmbench.internal.launch.LaunchCommand;
import dev.llmbench.internal.launch.LaunchedServer;
import dev.llmbench.internal.launch.RunningServer;
import dev.llmbench.internal.launch.PhaseHistory;
import dev.llmbench.internal.launch.ServerExitedException;
import dev.llmbench.internal.launch.ServerLaunchException;
import dev.llmbench.internal.launch.ServerLog;
import dev.llmbench.internal.launch.StartupPhase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.ProtocolException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLException;
import org.apiguardian.api.API;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One endpoint for the whole run: the server (the embedded engine, one the run launched, or one that runs
 * elsewhere), its clients, and the outcome of the one readiness wait. Starts nothing until first asked to
 * be ready, so that a launch failure is one failure for every test of the endpoint.
 */
@API(status = INTERNAL)
public final class Endpoint implements AutoCloseable {

  /** A 1-token completion may take long on a server's first request (kernels compiling, caches filling). */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);
  /** A health route answers at once or not at all: a TLS handshake with a plain-HTTP server must not wait a minute. */
  private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(10);
  /** The engine's "listening" line may reach its log a moment after /health answers. */
  private static final Duration LISTENING_LINE = Duration.ofMillis(500);

  private final EndpointConfig config;
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
  private RuntimeException notReady;
  private EndpointNotReadyException lost;

  /** @param reportDir where a launched server's log goes unless the launch names a file */
  public Endpoint(EndpointConfig config, BenchListener listener, Path reportDir) {
    this.config = config;
    this.listener = listener;
    this.reportDir = reportDir;
  }

  public OpenAiClient client() {
    return client;
  }

  public EndpointConfig config() {
    return config;
  }

  /** Starts the server when the run owns one, and the clients. */
  private void start() {
    URI url;
    if (config.launch().isPresent()) {
      url = launch(config.launch().get());
    } else if (config.container().isPresent()) {
      url = startContainer(config.container().get());
    } else if (config.isEmbedded()) {
      embedded = EmbeddedLlmServer.start(config.embedded());
      url = embedded.baseUrl();
    } else {
      url = config.baseUrl();
    }
    if (startupLog == null) startupLog = config.serverLogFile().map(ServerLog::follow).orElse(null);
    String key = System.getenv(config.apiKeyEnv());
    Duration probeTimeout = PROBE_TIMEOUT.compareTo(config.readyTimeout()) <= 0 ? PROBE_TIMEOUT : config.readyTimeout();
    Timeouts load = Timeouts.of(config.requestTimeout(), config.idleTimeout());
    ConnectionOptions options;
    try {
      options = ConnectionOptions.of(url, key, config.connection(), System::getenv, load.connect());
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

  private URI launch(LaunchSpec spec) {
    String port = spec.command().placeholders().contains("port") ? Integer.toString(LaunchCommand.freeLocalPort()) : null;
    if (port == null && config.baseUrl() == null) {
      throw new ServerLaunchException("the launch command has no ${port} and llmbench.base-url is unset, so LLMBench "
          + "cannot know where the server listens; add --port ${port} (or the engine's own flag) to the command, or "
          + "set llmbench.base-url", null);
    }
    LaunchCommand command = spec.command().resolve(port == null ? Map.of() : Map.of("port", port));
    Path log = spec.logFile().orElse(reportDir.resolve("server-" + (port == null ? "launched" : port) + ".log"));
    LaunchedServer process = LaunchedServer.launch(command, log, ServerLog.DEFAULT_RECENT_LINES, spec.stopGrace());
    launched = process;
    startupLog = config.serverLogFile().map(ServerLog::follow).orElse(launched.log());
    listener.serverLaunched(command.describe(), process.pid(), log);
    return config.baseUrl() != null ? config.baseUrl() : URI.create("http://127.0.0.1:" + port);
  }

  /** Starts the container (host network) as {@link #launch} starts a process: {@code ${port}} a free port. */
  private URI startContainer(ContainerSpec spec) {
    String port = spec.placeholders().contains("port") ? Integer.toString(LaunchCommand.freeLocalPort()) : null;
    if (port == null && config.baseUrl() == null) {
      throw new ServerLaunchException("the container's command and environment have no ${port} and llmbench.base-url is "
          + "unset, so LLMBench cannot know where the server listens; add --port ${port} to the command (or the engine's "
          + "own way, e.g. OLLAMA_HOST=127.0.0.1:${port} in the environment), or set llmbench.base-url", null);
    }
    URI url = config.baseUrl() != null ? config.baseUrl() : URI.create("http://127.0.0.1:" + port);
    if (port == null) requireFreeLocalPort(url);
    ContainerSpec resolved = spec.resolve(port == null ? Map.of() : Map.of("port", port));
    Path log = spec.logFile().orElse(reportDir.resolve("container-" + (port == null ? portOf(url) : port) + ".log"));
    launched = Containers.start(resolved, log, ServerLog.DEFAULT_RECENT_LINES);
    startupLog = config.serverLogFile().map(ServerLog::follow).orElse(launched.log());
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
   * Waits, once per run, until the server answers its health route and a 1-token completion; later
   * calls return the first outcome at once, failure included.
   */
  public synchronized EndpointInfo ensureReady() {
    if (info != null) return info;
    if (notReady != null) throw new EndpointNotReadyException("not waited for again: " + notReady.getMessage(), notReady);
    try {
      try {
        start();
      } catch (ServerLaunchException e) {
        throw new EndpointNotReadyException("the server could not be launched: " + e.getMessage(), e);
      }
      info = Listeners.step(listener, "Wait until " + client.baseUrl() + " is ready", this::waitUntilReady);
      listener.endpointReady(info);
      return info;
    } catch (RuntimeException e) {
      notReady = e;
      throw e;
    }
  }

  /**
   * Checks, before a level, that a server that was ready still answers at all (any HTTP status will do):
   * one that stopped answering, crashed or was killed, fails the level at once, and every later level
   * with the same cause, instead of each sending its requests into a closed port.
   *
   * @param after the level that ran last, for the message
   */
  public synchronized void ensureStillAnswering(String after) {
    ensureReady();
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

  private EndpointInfo waitUntilReady() {
    ReadinessLog log = new ReadinessLog();
    AtomicReference<String> model = new AtomicReference<>(config.model().isEmpty() ? null : config.model());
    AtomicLong nextProgress = new AtomicLong(config.readyProgressInterval().toNanos());
    AtomicReference<String> route = new AtomicReference<>("/health");
    String url = client.baseUrl().toString();
    try {
      Awaitility.with()
          .alias("LLM endpoint " + url + " ready")
          .pollDelay(Duration.ZERO)
          .pollInterval(config.readyPollInterval())
          .atMost(config.readyTimeout())
          .conditionEvaluationListener(condition -> {
            Duration elapsed = log.elapsed();
            if (!condition.isSatisfied() && elapsed.toNanos() >= nextProgress.get()) {
              nextProgress.addAndGet(config.readyProgressInterval().toNanos());
              listener.readinessProgress(url, elapsed, startupSoFar(), log.last());
            }
          })
          .until(() -> probeOnce(log, model, route));
    } catch (ServerExitedException e) {
      listener.endpointNotReady(url, log.lines());
      throw new EndpointNotReadyException("LLM endpoint " + url + " cannot become ready: " + e.getMessage(), e);
    } catch (CannotBecomeReady e) {
      listener.endpointNotReady(url, log.lines());
      throw new EndpointNotReadyException("LLM endpoint " + url + " cannot become ready: " + e.getMessage()
          + " (gave up after " + Formats.duration(log.elapsed()) + " instead of waiting out llmbench.ready.timeout "
          + Formats.duration(config.readyTimeout()) + ", since this does not clear by waiting)", e);
    } catch (ConditionTimeoutException e) {
      listener.endpointNotReady(url, log.lines());
      throw new EndpointNotReadyException("LLM endpoint " + url + " was not ready after "
          + Formats.duration(log.elapsed()) + " (limit " + Formats.duration(config.readyTimeout())
          + "); last status: " + log.last() + (startupLog == null ? "" : "; its log: " + startupLog.phases().describe())
          + ". Check that the server is running and loading the model, or raise llmbench.ready.timeout.", e);
    }
    Duration waited = log.elapsed();
    ServerStartup startup = startup();
    // Timed after the wait, so that it measures the network and not a server still loading.
    Optional<RoundTrip> roundTrip = RoundTrips.measure(health, route.get(), config.networkSamples());
    return new EndpointInfo(url, model.get(), config.api(),
        embedded == null ? Optional.empty() : Optional.of(embedded.profile().name()), serverVersion(), waited,
        log.lines(), startup, roundTrip, Optional.empty());
  }

  /** The launch and the server's phases so far, for a progress line; empty when there is neither. */
  private String startupSoFar() {
    String phases = startupLog == null ? "" : startupLog.phases().describe();
    String since = launched == null ? "" : "launched " + Formats.duration(launched.sinceLaunch()) + " ago";
    return since.isEmpty() || phases.isEmpty() ? since + phases : since + "; " + phases;
  }

  /** What the server's log said about its startup, once the wait is over. */
  private ServerStartup startup() {
    Optional<Duration> sinceLaunch = Optional.ofNullable(launched).map(RunningServer::sinceLaunch);
    if (startupLog == null) return sinceLaunch.map(d -> new ServerStartup(Optional.empty(), List.of(), List.of(),
        Optional.of(d), "")).orElse(ServerStartup.NONE);
    PhaseHistory phases = startupLog.phases();
    long until = System.nanoTime() + LISTENING_LINE.toNanos();
    while (phases.engine().isPresent() && !phases.listening() && System.nanoTime() < until) {
      sleep(Duration.ofMillis(50));
      phases = startupLog.phases();
    }
    return new ServerStartup(phases.engine().map(Engine::displayName),
        phases.spans().stream().filter(s -> s.phase() != StartupPhase.LISTENING)
            .map(s -> new ServerStartup.Phase(s.phase().label(), s.startSeen() ? Optional.of(s.time()) : Optional.empty()))
            .toList(),
        phases.engineTimings().stream().map(t -> new ServerStartup.EngineDuration(t.what(), t.took())).toList(),
        sinceLaunch, phases.describe());
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A probe's answer that waiting cannot change: a refused key, no OpenAI-compatible route, a protocol that
   * does not match. The message says the cause and the fix.
   */
  private static final class CannotBecomeReady extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CannotBecomeReady(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * One probe: the launched server still running, health route, model id, then a 1-token completion.
   * Records what it saw in the log; throws for what waiting cannot clear (on every route it calls: a refused
   * key, a client error, no such route, a body that is no model list, a protocol that does not match), and
   * waits on the rest (refused connections, 502/503/504, 408, 425, 429, timeouts: a server that is starting).
   */
  private boolean probeOnce(ReadinessLog log, AtomicReference<String> model, AtomicReference<String> healthRoute) {
    if (launched != null) launched.checkRunning();
    try {
      String route = "/health";
      Optional<OpenAiClient.HttpAnswer> health = this.health.get(route);
      if (health.isPresent() && health.get().status() == 404) {
        route = "/v1/models";
        health = this.health.get(route);
        if (health.isPresent() && health.get().status() == 404) {
          log.saw("GET /health and GET /v1/models answered 404");
          throw new CannotBecomeReady("GET /health and GET /v1/models both answered 404, so no OpenAI-compatible "
              + "server is at this address; set llmbench.base-url to the server's root, e.g. http://host:8000", null);
        }
      }
      healthRoute.set(route);
      if (!answeredOk(log, "GET " + route, health)) return false;
      if (model.get() == null) {
        Optional<OpenAiClient.HttpAnswer> list = route.equals("/v1/models") ? health : probe.get("/v1/models");
        if (list.isPresent() && list.get().status() == 404) {
          log.saw("GET /v1/models answered 404");
          throw new CannotBecomeReady("GET " + route + " answered 200 but GET /v1/models answered 404, so the server "
              + "lists no model to send requests for; set llmbench.model to the model id it serves", null);
        }
        if (!answeredOk(log, "GET /v1/models", list)) return false;
        List<String> ids = modelIds(list.get().body());
        if (ids.isEmpty()) {
          log.saw("/v1/models lists no model yet");
          return false;
        }
        model.set(ids.get(0));
      }
      RequestTrace t = probe.send(config.api(), model.get(), CompletionRequest.of("Hi").withMaxTokens(1).withStream(false),
          TextCapture.NONE);
      if (!t.succeeded()) {
        log.saw("a 1-token completion failed: " + t.failure());
        int status = t.failure().status();
        refused(status, "POST " + config.api().path());
        if (status == 404 || status == 400 || status == 422) {
          throw new CannotBecomeReady("a 1-token completion to " + config.api().path() + " for model '" + model.get()
              + "' answered " + t.failure() + "; check llmbench.model (the server lists "
              + listedModels() + ") and llmbench.api (chat or completions)", null);
        }
        if (clientError(status)) {
          throw new CannotBecomeReady("a 1-token completion to " + config.api().path() + " answered " + t.failure()
              + ", a client error that waiting does not change; check llmbench.base-url and llmbench.api (chat or "
              + "completions)", null);
        }
        return false;
      }
      log.saw("ready");
      return true;
    } catch (CannotBecomeReady e) {
      throw e;
    } catch (SSLException e) {
      log.saw(e.getClass().getSimpleName() + ": " + e.getMessage());
      if (untrustedCertificate(e)) {
        throw new CannotBecomeReady("the server's TLS certificate is not trusted (" + e.getClass().getSimpleName() + ": "
            + e.getMessage() + "); set llmbench.tls.trust to its CA's PEM file or a trust store, and check that the "
            + "host in llmbench.base-url is the one the certificate names", e);
      }
      throw new CannotBecomeReady("the connection does not speak the URL's protocol (" + e.getClass().getSimpleName() + ": "
          + e.getMessage() + "); use http:// for a plain-HTTP server and https:// for a TLS one", e);
    } catch (ProtocolException e) {
      log.saw(e.getClass().getSimpleName() + ": " + e.getMessage());
      throw new CannotBecomeReady("the connection does not speak the URL's protocol (" + e.getClass().getSimpleName() + ": "
          + e.getMessage() + "); use http:// for a plain-HTTP server and https:// for a TLS one", e);
    } catch (IOException | RuntimeException e) {
      log.saw(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
      return false;
    }
  }

  /**
   * Whether a GET answered 200; logs any other answer, and throws for one that waiting cannot change: 401 and
   * 403 (the key), any other client error but the few that do clear (408, 425, 429).
   */
  private boolean answeredOk(ReadinessLog log, String request, Optional<OpenAiClient.HttpAnswer> answer) {
    int status = answer.map(OpenAiClient.HttpAnswer::status).orElse(0);
    if (status == 200) return true;
    String body = Excerpt.of(answer.map(OpenAiClient.HttpAnswer::body).orElse(""), 200);
    log.saw(request + " answered " + status + " " + body);
    refused(status, request);
    if (clientError(status)) {
      throw new CannotBecomeReady(request + " answered " + status + " " + body + ", a client error that waiting does not "
          + "change; check llmbench.base-url (" + (client.baseUrl().getScheme().equals("https") ? "https:// to a "
          + "plain-HTTP port, or the wrong server" : "http:// to a TLS port answers 400, or the wrong server")
          + ") and llmbench.headers", null);
    }
    return false;
  }

  /** A 4xx but the ones that clear by themselves: 408 Request Timeout, 425 Too Early, 429 Too Many Requests. */
  private static boolean clientError(int status) {
    return status >= 400 && status < 500 && status != 408 && status != 425 && status != 429;
  }

  /** The ids of an OpenAI model list; a 200 whose body is not one is no OpenAI-compatible server, nor will become one. */
  private List<String> modelIds(String body) {
    JsonNode data;
    try {
      data = new ObjectMapper().readTree(body).path("data");
    } catch (IOException e) {
      data = null;
    }
    if (data == null || !data.isArray()) {
      throw new CannotBecomeReady("GET /v1/models answered 200 with " + Excerpt.of(body, 120) + ", which is not an "
          + "OpenAI model list ({\"data\": [{\"id\": ...}]}), so no OpenAI-compatible server is at this address; set "
          + "llmbench.base-url to the server's root, e.g. http://host:8000", null);
    }
    List<String> ids = new java.util.ArrayList<>();
    data.forEach(m -> ids.add(m.path("id").asText()));
    return ids;
  }

  /** A certificate that does not chain to a trusted CA or does not name the host, rather than a protocol mismatch. */
  private static boolean untrustedCertificate(SSLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException || t instanceof java.security.cert.CertPathValidatorException
          || String.valueOf(t.getMessage()).contains("PKIX")) {
        return true;
      }
    }
    return false;
  }

  /** A 401 or 403 does not clear by waiting: the key is missing or wrong. Names the variable, never the value. */
  private void refused(int status, String request) {
    if (status != 401 && status != 403) return;
    String variable = config.apiKeyEnv();
    String key = System.getenv(variable);
    String found = key == null || key.isBlank() ? "which is not set" : "which is set (" + key.length() + " characters)";
    String headers = config.connection().headers().isEmpty() ? "" : "; the headers of llmbench.headers went too, check "
        + "their variables";
    throw new CannotBecomeReady(request + " answered " + status + (status == 401 ? " Unauthorized" : " Forbidden")
        + ": the bearer key comes from the environment variable " + variable + ", " + found
        + "; set it to the server's key, or name another variable with llmbench.api-key-env" + headers, null);
  }

  private String listedModels() {
    try {
      return probe.modelIds().toString();
    } catch (IOException | RuntimeException e) {
      return "no models";
    }
  }

  private Optional<String> serverVersion() {
    ObjectMapper json = new ObjectMapper();
    for (String path : List.of("/version", "/props")) {
      try {
        Optional<OpenAiClient.HttpAnswer> a = probe.get(path);
        if (a.isPresent() && a.get().status() == 200) {
          JsonNode node = json.readTree(a.get().body());
          String v = node.path("version").asText(node.path("build_info").asText(""));
          if (!v.isEmpty()) return Optional.of(v);
        }
      } catch (IOException | RuntimeException ignored) {
        // A server without these routes simply has no version to report.
      }
    }
    return Optional.empty();
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
    return client == null ? "endpoint " + ConnectionOptions.redactUrl(String.valueOf(config.baseUrl())) : client.toString();
  }
}
