package dev.llmbench.internal.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.EndpointInfo;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.config.DurationParser;
import dev.llmbench.internal.config.SettingKeys;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.startup.Engine;
import dev.llmbench.internal.startup.PhaseHistory;
import dev.llmbench.internal.startup.RunningServer;
import dev.llmbench.internal.startup.ServerExitedException;
import dev.llmbench.internal.startup.ServerLog;
import dev.llmbench.internal.startup.StartupPhase;
import dev.llmbench.result.RoundTrip;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.server.ServerStartup;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.URI;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The one readiness wait of an endpoint, composed as Testcontainers composes wait strategies
 * ({@code WaitAllStrategy}): each poll checks that a launched server still runs, then runs the probes in order
 * (health route, model list, then one request to each route the tests will use: a 1-token completion, a 1-input
 * embeddings request) until all pass in one poll; Awaitility polls, with the run's timeout, interval and progress
 * lines. What waiting cannot change fails the wait at once ({@link ReadinessRules}); a route the server refuses for
 * good is settled as refused instead, so that the tests of its other routes still run and only those that need it
 * fail. Once ready it reads what the server's log said of its startup, its version, and the round trip of the
 * network.
 */
final class ReadinessWait {

  /** The engine's "listening" line may reach its log a moment after /health answers. */
  private static final Duration LISTENING_LINE = Duration.ofMillis(500);

  private final EndpointSpec config;
  private final BenchListener listener;
  private final URI baseUrl;
  private final OpenAiClient health;
  private final OpenAiClient probe;
  /** A server the run started, or null. */
  private final RunningServer launched;
  /** The log followed for startup phases, or null. */
  private final ServerLog startupLog;
  /** How the embedded engine's {@code /version} begins, before its profile's name. */
  static final String EMBEDDED_VERSION = "llmbench-embedded/";

  private final Optional<String> embeddedProfile;
  private final List<ReadinessProbe> probes;
  /** One probe per route the tests will use, in the order of {@link EndpointRoute}. */
  private final Map<EndpointRoute, ReadinessProbe> routeProbes = new LinkedHashMap<>();

  /**
   * What the wait found: the endpoint, and the routes it refused for good.
   *
   * @param refused each refused route with the failure of a test that needs it
   */
  record Outcome(EndpointInfo info, Map<EndpointRoute, RouteRefusal> refused) {}

  /**
   * @param health   the client of the health route: short timeouts, since it answers at once or not at all
   * @param probe    the client of the model list and the completion: the long first request's timeout
   * @param launched a server the run started, checked on every poll; null for one it did not start
   * @param routes   the routes the tests will use, each probed
   */
  ReadinessWait(EndpointSpec config, BenchListener listener, URI baseUrl, OpenAiClient health, OpenAiClient probe,
      RunningServer launched, ServerLog startupLog, Optional<String> embeddedProfile, Set<EndpointRoute> routes) {
    this.config = config;
    this.listener = listener;
    this.baseUrl = baseUrl;
    this.health = health;
    this.probe = probe;
    this.launched = launched;
    this.startupLog = startupLog;
    this.embeddedProfile = embeddedProfile;
    ReadinessRules rules = new ReadinessRules(config, baseUrl);
    this.probes = List.of(new HealthProbe(health, rules), new ModelProbe(probe, rules));
    for (EndpointRoute route : EndpointRoute.values()) {
      if (!routes.contains(route)) continue;
      routeProbes.put(route, route == EndpointRoute.GENERATION ? new CompletionProbe(probe, config, rules)
          : new EmbeddingsProbe(probe, rules));
    }
  }

  /** Waits until the server is ready; throws {@link EndpointNotReadyException} saying why it is not. */
  Outcome await() {
    ReadinessState state = new ReadinessState(config.model().isEmpty() ? null : config.model());
    ReadinessLog log = state.log;
    String url = baseUrl.toString();
    try {
      awaitUntil(state, true);
    } catch (ServerExitedException e) {
      listener.endpointNotReady(url, log.lines());
      throw new EndpointNotReadyException("LLM endpoint " + url + " cannot become ready: " + e.getMessage(), e);
    } catch (CannotBecomeReadyException e) {
      listener.endpointNotReady(url, log.lines());
      throw new EndpointNotReadyException("LLM endpoint " + url + " cannot become ready: " + e.getMessage()
          + givenUp(log), e);
    } catch (ConditionTimeoutException e) {
      listener.endpointNotReady(url, log.lines());
      if (!state.reached && launched == null && !config.urlSource().isEmpty()) throw neverAnswered(url, log, e);
      throw new EndpointNotReadyException("LLM endpoint " + url + " was not ready after "
          + Formats.duration(log.elapsed()) + " (" + limit() + "); last status: "
          + log.last() + (startupLog == null || startupLog.phases().describe().isEmpty() ? ""
              : "; its log: " + startupLog.phases().describe())
          + ". Check that the server is running and loading the model, or raise llmbench.ready.timeout.", e);
    }
    Duration waited = log.elapsed();
    ServerStartup startup = startup();
    // Timed after the wait, so that it measures the network and not a server still loading.
    Optional<RoundTrip> roundTrip = RoundTrips.measure(health, state.healthRoute, config.networkSamples());
    Optional<String> version = serverVersion();
    // The embedded engine launched as a process of its own (a candidate, scripts/embedded-engine.sh) is the
    // simulator too, and every report must say so: it names itself in its version.
    Optional<String> simulator = embeddedProfile.or(() -> version.filter(v -> v.startsWith(EMBEDDED_VERSION))
        .map(v -> v.substring(EMBEDDED_VERSION.length())));
    EndpointInfo info = new EndpointInfo(url, state.model, config.api(), simulator, version, waited,
        log.lines(), startup, roundTrip, Optional.empty());
    return new Outcome(info, refusals(state));
  }

  /**
   * Probes routes of a server already ready for others (a later class that sends embeddings where the first sent
   * chat), until each passes or is refused; a route still not answering at the timeout is refused with that.
   *
   * @return the routes refused for good
   */
  Map<EndpointRoute, RouteRefusal> awaitRoutes(String model) {
    ReadinessState state = new ReadinessState(model);
    try {
      awaitUntil(state, false);
    } catch (ServerExitedException | CannotBecomeReadyException | ConditionTimeoutException e) {
      String why = e instanceof ConditionTimeoutException ? "was not answered after " + Formats.duration(state.log.elapsed())
          + " (" + limit() + "); last status: " + state.log.last() : e.getMessage();
      for (EndpointRoute route : routeProbes.keySet()) {
        if (state.passed.contains(route) || state.refused.containsKey(route)) continue;
        state.refused.put(route, new CannotBecomeReadyException(route.request(config.api()) + " " + why, e, why));
      }
    }
    return refusals(state);
  }

  /** " (gave up after ...)": why the wait ended before its timeout. */
  private String givenUp(ReadinessLog log) {
    return " (gave up after " + Formats.duration(log.elapsed()) + " instead of waiting out the " + limit()
        + ", since this does not clear by waiting)";
  }

  /** {@code limit 20m, llmbench.ready.timeout}: the limit as it is written, and the key that sets it. */
  private String limit() {
    return "limit " + DurationParser.written(config.readyTimeout()) + ", " + SettingKeys.READY_TIMEOUT.key();
  }

  /**
   * The wait's end when nothing at the URL ever took a connection: a wrong URL as likely as a server still starting, so
   * the message says where the URL came from and both fixes.
   */
  private EndpointNotReadyException neverAnswered(String url, ReadinessLog log, ConditionTimeoutException e) {
    String key = SettingKeys.READY_TIMEOUT.key();
    return new EndpointNotReadyException("LLM endpoint " + url + " never answered: every connection failed for "
        + Formats.duration(log.elapsed()) + " (" + limit() + "), the last with " + log.last() + ". Its URL came from "
        + config.urlSource() + ". Either nothing listens there: check the URL's host and port; or the server is still "
        + "starting: raise " + key + ", e.g. -D" + key + "=" + DurationParser.written(config.readyTimeout().multipliedBy(2))
        + ".", e);
  }

  private Map<EndpointRoute, RouteRefusal> refusals(ReadinessState state) {
    Map<EndpointRoute, RouteRefusal> refused = new EnumMap<>(EndpointRoute.class);
    state.refused.forEach((route, e) -> refused.put(route, new RouteRefusal(route, e.answered(),
        new EndpointNotReadyException("LLM endpoint " + baseUrl + " cannot become ready for " + route.request(config.api())
            + ": " + e.getMessage() + givenUp(state.log), e))));
    return refused;
  }

  /** Polls with Awaitility until every probe passed, or its route was refused for good. */
  private void awaitUntil(ReadinessState state, boolean whole) {
    ReadinessLog log = state.log;
    AtomicLong nextProgress = new AtomicLong(config.readyProgressInterval().toNanos());
    String url = baseUrl.toString();
    Awaitility.with()
        .alias("LLM endpoint " + url + " ready")
        .pollDelay(Duration.ZERO)
        .pollInterval(config.readyPollInterval())
        .atMost(config.readyTimeout())
        .conditionEvaluationListener(condition -> {
          Duration elapsed = log.elapsed();
          if (!condition.isSatisfied() && elapsed.toNanos() >= nextProgress.get()) {
            nextProgress.addAndGet(config.readyProgressInterval().toNanos());
            listener.readinessProgress(url, elapsed, config.readyTimeout(), startupSoFar(), log.last());
          }
        })
        .until(() -> poll(state, whole));
  }

  /**
   * One poll: the launched server still running, then every probe. Records what it saw in the log; throws for
   * what waiting cannot clear (on every route it calls: a refused key, a client error, no such route, a body that
   * is no model list, a protocol that does not match), and waits on the rest (refused connections, 502/503/504,
   * 408, 425, 429, timeouts: a server that is starting).
   */
  private boolean poll(ReadinessState state, boolean whole) {
    if (launched != null) launched.checkRunning();
    ReadinessLog log = state.log;
    try {
      if (whole) {
        for (ReadinessProbe p : probes) {
          if (!p.passes(state)) return false;
        }
      }
      boolean settled = true;
      for (Map.Entry<EndpointRoute, ReadinessProbe> p : routeProbes.entrySet()) {
        EndpointRoute route = p.getKey();
        if (state.passed.contains(route) || state.refused.containsKey(route)) continue;
        try {
          if (p.getValue().passes(state)) state.passed.add(route);
          else settled = false;
        } catch (CannotBecomeReadyException refused) {
          state.refused.put(route, refused);
        }
      }
      if (!settled) return false;
      log.saw(state.refused.isEmpty() ? "ready" : "ready, but " + String.join(" and ", state.refused.keySet().stream()
          .map(r -> r.request(config.api())).toList()) + " refused for good");
      return true;
    } catch (CannotBecomeReadyException e) {
      throw e;
    } catch (SSLException e) {
      log.saw(e.getClass().getSimpleName() + ": " + e.getMessage());
      throw ReadinessRules.tls(e);
    } catch (ProtocolException e) {
      log.saw(e.getClass().getSimpleName() + ": " + e.getMessage());
      throw ReadinessRules.protocol(e);
    } catch (IOException | RuntimeException e) {
      if (!interrupted(e)) {
        log.saw(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        if (!neverConnected(e)) state.reached = true;
      }
      return false;
    }
  }

  /** A connection refused, a host unknown or unreachable, a connect that timed out: nothing at the address answered. */
  private static boolean neverConnected(Throwable e) {
    return e instanceof ConnectException || e instanceof UnknownHostException || e instanceof NoRouteToHostException
        || e instanceof SocketTimeoutException && String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("connect");
  }

  /**
   * Whether a probe ended because its thread was interrupted: the wait's own timeout stops the poll in flight. That
   * says nothing of the server, so it must not replace the last answer the server gave, which the timeout names.
   */
  private static boolean interrupted(Throwable e) {
    if (Thread.currentThread().isInterrupted()) return true; // okio and OkHttp keep the flag when they give up
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException || t instanceof ClosedByInterruptException) return true;
    }
    return false;
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
}
