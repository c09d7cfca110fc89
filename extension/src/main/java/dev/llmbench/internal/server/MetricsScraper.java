package dev.llmbench.internal.server;

import dev.llmbench.internal.client.OpenAiClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Scrapes the server's {@code /metrics} before a level, every {@value #INTERVAL_MS} ms during it (for
 * gauge peaks such as queue depth) and after it (for counter deltas).
 */
public final class MetricsScraper {

  static final long INTERVAL_MS = 250;

  private final OpenAiClient client;
  private final PrometheusText before;
  private final Map<String, Double> peaks = new HashMap<>();
  private final Thread thread;
  private volatile boolean stopped;
  private int samples;

  private MetricsScraper(OpenAiClient client, PrometheusText before) {
    this.client = client;
    this.before = before;
    this.thread = new Thread(this::poll, "llmbench-metrics-scraper");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Starts scraping, or empty when the server has no Prometheus {@code /metrics}. */
  public static Optional<MetricsScraper> start(OpenAiClient client) {
    return scrape(client).map(first -> new MetricsScraper(client, first));
  }

  static Optional<PrometheusText> scrape(OpenAiClient client) {
    try {
      return client.get("/metrics").filter(a -> a.status() == 200)
          .map(a -> PrometheusText.parse(a.body())).filter(p -> !p.series().isEmpty());
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  private void poll() {
    while (!stopped) {
      scrape(client).ifPresent(this::record);
      try {
        Thread.sleep(INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void record(PrometheusText sample) {
    samples++;
    sample.series().forEach((name, value) -> {
      if ("gauge".equals(sample.typeOf(name))) peaks.merge(name, value, Math::max);
    });
  }

  /** Stops, scrapes once more, and returns the deltas; a failed last scrape adds a warning and gives no deltas. */
  public ServerMetrics stop(List<String> warnings) {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Optional<PrometheusText> after = scrape(client);
    if (after.isEmpty()) {
      warnings.add("the server's /metrics could not be read after the level: no server-side deltas");
      return null;
    }
    after.ifPresent(this::record);
    Map<String, Double> deltas = new HashMap<>();
    after.get().series().forEach((name, value) -> {
      Double old = before.series().get(name);
      if (old != null && !"gauge".equals(after.get().typeOf(name))) deltas.put(name, value - old);
    });
    synchronized (this) {
      return new ServerMetrics(after.get().family(), deltas, peaks, samples);
    }
  }
}
