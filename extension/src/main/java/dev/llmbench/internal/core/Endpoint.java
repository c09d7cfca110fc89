package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.CompletionRequest;
import dev.llmbench.EndpointInfo;
import dev.llmbench.EndpointNotReadyException;
import dev.llmbench.RoundTrip;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.embedded.EmbeddedLlmServer;
import dev.llmbench.internal.format.Excerpt;
import dev.llmbench.internal.format.Formats;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One endpoint for the whole run: its clients, the embedded engine if there is one, and the outcome of
 * the one readiness wait.
 */
@API(status = INTERNAL)
public final class Endpoint implements AutoCloseable {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

  private final EndpointConfig config;
  private final BenchListener listener;
  private final EmbeddedLlmServer embedded;
  private final OpenAiClient client;
  private final OpenAiClient probe;
  private EndpointInfo info;
  private RuntimeException notReady;

  public Endpoint(EndpointConfig config, BenchListener listener) {
    this.config = config;
    this.listener = listener;
    this.embedded = config.isEmbedded()
        ? EmbeddedLlmServer.start(config.embeddedProfile(), 0, config.embeddedStartupDelay())
        : null;
    URI url = embedded != null ? embedded.baseUrl() : config.baseUrl();
    String key = System.getenv(config.apiKeyEnv());
    Duration probeTimeout = min(PROBE_TIMEOUT, config.readyTimeout());
    this.client = new OpenAiClient(url, key, config.requestTimeout(), config.idleTimeout());
    this.probe = new OpenAiClient(url, key, probeTimeout, probeTimeout);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  public OpenAiClient client() {
    return client;
  }

  public EndpointConfig config() {
    return config;
  }

  /**
   * Waits, once per run, until the server answers its health route and a 1-token completion; later
   * calls return the first outcome at once, failure included.
   */
  public synchronized EndpointInfo ensureReady() {
    if (info != null) return info;
    if (notReady != null) throw new EndpointNotReadyException("not waited for again: " + notReady.getMessage(), notReady);
    try {
      info = Listeners.step(listener, "Wait until " + client.baseUrl() + " is ready", this::waitUntilReady);
      listener.endpointReady(info);
      return info;
    } catch (RuntimeException e) {
      notReady = e;
      throw e;
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
              listener.readinessProgress(url, elapsed, log.last());
            }
          })
          .until(() -> probeOnce(log, model, route));
    } catch (ConditionTimeoutException e) {
      listener.endpointNotReady(url, log.lines());
      throw new EndpointNotReadyException("LLM endpoint " + url + " was not ready after "
          + Formats.duration(log.elapsed()) + " (limit " + Formats.duration(config.readyTimeout())
          + "); last status: " + log.last() + ". Check that the server is running and loading the model, "
          + "or raise llmbench.ready.timeout.", e);
    }
    Duration timeToReady = log.elapsed();
    // Timed after the wait, so that it measures the network and not a server still loading.
    Optional<RoundTrip> roundTrip = RoundTrips.measure(probe, route.get(), config.networkSamples());
    return new EndpointInfo(url, model.get(), config.api(),
        embedded == null ? Optional.empty() : Optional.of(embedded.profile().name()), serverVersion(), timeToReady,
        log.lines(), roundTrip, Optional.empty());
  }

  /** One probe: health route, model id, then a 1-token completion. Records what it saw in the log. */
  private boolean probeOnce(ReadinessLog log, AtomicReference<String> model, AtomicReference<String> healthRoute) {
    try {
      String route = "/health";
      Optional<OpenAiClient.HttpAnswer> health = probe.get(route);
      if (health.isPresent() && health.get().status() == 404) {
        route = "/v1/models";
        health = probe.get(route);
      }
      healthRoute.set(route);
      int status = health.map(OpenAiClient.HttpAnswer::status).orElse(0);
      if (status != 200) {
        log.saw("GET " + route + " answered " + status + " "
            + Excerpt.of(health.map(OpenAiClient.HttpAnswer::body).orElse(""), 200));
        return false;
      }
      if (model.get() == null) {
        List<String> ids = probe.modelIds();
        if (ids.isEmpty()) {
          log.saw("/v1/models lists no model yet");
          return false;
        }
        model.set(ids.get(0));
      }
      RequestTrace t = probe.send(config.api(), model.get(), CompletionRequest.of("Hi").withMaxTokens(1).withStream(false));
      if (!t.succeeded()) {
        log.saw("a 1-token completion failed: " + t.failure());
        return false;
      }
      log.saw("ready");
      return true;
    } catch (IOException | RuntimeException e) {
      log.saw(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
      return false;
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
    client.close();
    probe.close();
    if (embedded != null) embedded.close();
  }

  @Override
  public String toString() {
    return client.toString();
  }
}
