package dev.llmbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.internal.client.Excerpt;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.embedded.EmbeddedLlmServer;
import dev.llmbench.internal.report.AllureRunFiles;
import dev.llmbench.internal.report.AllureSupport;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One endpoint for the whole run, kept in the root {@link ExtensionContext.Store}: its clients, the
 * embedded engine if there is one, and the outcome of the one readiness wait.
 */
final class LiveEndpoint implements AutoCloseable {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LiveEndpoint.class);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

  private final EndpointSettings settings;
  private final EmbeddedLlmServer embedded;
  private final OpenAiClient client;
  private final OpenAiClient probe;
  private final AllureRunFiles runFiles;
  private EndpointInfo info;
  private RuntimeException notReady;

  private LiveEndpoint(EndpointSettings settings, AllureRunFiles runFiles) {
    this.settings = settings;
    this.runFiles = runFiles;
    this.embedded = settings.isEmbedded()
        ? EmbeddedLlmServer.start(settings.embeddedProfile(), 0, settings.embeddedStartupDelay())
        : null;
    URI url = embedded != null ? embedded.baseUrl() : settings.baseUrl();
    String key = System.getenv(settings.apiKeyEnv());
    this.client = new OpenAiClient(url, key, settings.requestTimeout(), settings.idleTimeout());
    this.probe = new OpenAiClient(url, key, min(PROBE_TIMEOUT, settings.readyTimeout()), min(PROBE_TIMEOUT, settings.readyTimeout()));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** The endpoint for this test's settings, created on first use and closed when the run ends. */
  static LiveEndpoint of(ExtensionContext context) {
    EndpointSettings settings = EndpointSettings.of(context);
    ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
    // Stored first, so it is closed (and writes its files) after every endpoint.
    AllureRunFiles runFiles = store.getOrComputeIfAbsent(AllureRunFiles.class, k -> new AllureRunFiles(
        AllureRunFiles.resultsDir(context.getConfigurationParameter("allure.results.directory")),
        context.getConfigurationParameter(AllureRunFiles.CONFIG_DIR_KEY).map(Path::of)), AllureRunFiles.class);
    return store.getOrComputeIfAbsent(settings.key(), k -> new LiveEndpoint(settings, runFiles), LiveEndpoint.class);
  }

  OpenAiClient client() {
    return client;
  }

  EndpointSettings settings() {
    return settings;
  }

  /**
   * Waits, once per run, until the server answers its health route and a 1-token completion; later
   * calls return the first outcome at once, failure included.
   */
  synchronized EndpointInfo ensureReady() {
    if (info != null) return info;
    if (notReady != null) throw new EndpointNotReadyException("not waited for again: " + notReady.getMessage(), notReady);
    try {
      info = AllureSupport.step("Wait until " + client.baseUrl() + " is ready", this::waitUntilReady);
      AllureSupport.volatileParameter("time to ready", Formats.duration(info.timeToReady()));
      runFiles.endpointReady(info);
      return info;
    } catch (RuntimeException e) {
      notReady = e;
      throw e;
    }
  }

  private EndpointInfo waitUntilReady() {
    ReadinessLog log = new ReadinessLog();
    AtomicReference<String> model = new AtomicReference<>(settings.model().isEmpty() ? null : settings.model());
    AtomicLong nextProgress = new AtomicLong(settings.readyProgressInterval().toNanos());
    String url = client.baseUrl().toString();
    try {
      Awaitility.with()
          .alias("LLM endpoint " + url + " ready")
          .pollDelay(Duration.ZERO)
          .pollInterval(settings.readyPollInterval())
          .atMost(settings.readyTimeout())
          .conditionEvaluationListener(condition -> {
            long elapsed = log.elapsed().toNanos();
            if (!condition.isSatisfied() && elapsed >= nextProgress.get()) {
              nextProgress.addAndGet(settings.readyProgressInterval().toNanos());
              System.out.printf("[llmbench] waiting for %s: %s elapsed, last: %s%n", url,
                  Formats.duration(Duration.ofNanos(elapsed)), log.last());
            }
          })
          .until(() -> probeOnce(log, model));
    } catch (ConditionTimeoutException e) {
      AllureSupport.attach("readiness", "text/plain", "txt", String.join("\n", log.lines()));
      throw new EndpointNotReadyException("LLM endpoint " + url + " was not ready after "
          + Formats.duration(log.elapsed()) + " (limit " + Formats.duration(settings.readyTimeout())
          + "); last status: " + log.last() + ". Check that the server is running and loading the model, "
          + "or raise llmbench.ready.timeout.", e);
    }
    Duration timeToReady = log.elapsed();
    System.out.printf("[llmbench] %s ready after %s, model '%s'%n", url, Formats.duration(timeToReady), model.get());
    AllureSupport.attach("readiness", "text/plain", "txt", String.join("\n", log.lines()));
    return new EndpointInfo(url, model.get(), settings.api(),
        embedded == null ? Optional.empty() : Optional.of(embedded.profile().name()), serverVersion(), timeToReady,
        log.lines());
  }

  /** One probe: health route, model id, then a 1-token completion. Records what it saw in the log. */
  private boolean probeOnce(ReadinessLog log, AtomicReference<String> model) {
    try {
      Optional<OpenAiClient.HttpAnswer> health = probe.get("/health");
      if (health.isPresent() && health.get().status() == 404) health = probe.get("/v1/models");
      int status = health.map(OpenAiClient.HttpAnswer::status).orElse(0);
      if (status != 200) {
        log.saw("GET /health answered " + status + " " + Excerpt.of(health.map(OpenAiClient.HttpAnswer::body).orElse(""), 200));
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
      RequestTrace t = probe.send(settings.api(), model.get(), CompletionRequest.of("Hi").withMaxTokens(1).withStream(false));
      if (!t.succeeded()) {
        log.saw("a 1-token completion failed: " + t.error().key() + " " + t.error().message());
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
