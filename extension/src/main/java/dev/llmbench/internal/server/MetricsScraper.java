package dev.llmbench.internal.server;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.server.ServerMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Scrapes the server's {@code /metrics} before a level, every {@value #INTERVAL_MS} ms during it (for
 * gauge peaks and means such as queue depth and KV-cache use) and after it (for counter deltas).
 */
@API(status = INTERNAL)
public final class MetricsScraper {

  static final long INTERVAL_MS = 250;

  private final OpenAiClient client;
  private final PrometheusText before;
  private final List<PrometheusText> during = new ArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;

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
    return answer(client).flatMap(MetricsScraper::parsed);
  }

  private static Optional<OpenAiClient.HttpAnswer> answer(OpenAiClient client) {
    try {
      return client.get("/metrics");
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  private static Optional<PrometheusText> parsed(OpenAiClient.HttpAnswer a) {
    return Optional.of(a).filter(x -> x.status() == 200).map(x -> PrometheusText.parse(x.body()))
        .filter(p -> !p.series().isEmpty());
  }

  /**
   * Scrapes until stopped; a 401, 403 or 404 ends the polling, since a route that refuses or is gone does
   * not come back within a level by waiting (the level's deltas then rest on the scrape after it).
   */
  private void poll() {
    while (!stopped) {
      Optional<OpenAiClient.HttpAnswer> a = answer(client);
      int status = a.map(OpenAiClient.HttpAnswer::status).orElse(0);
      if (status == 401 || status == 403 || status == 404) return;
      a.flatMap(MetricsScraper::parsed).ifPresent(this::record);
      try {
        Thread.sleep(INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void record(PrometheusText sample) {
    during.add(sample);
  }

  /** Whether the polling thread has ended within {@code wait} (after a refusal, or {@link #stop()}). */
  boolean pollingEnded(java.time.Duration wait) throws InterruptedException {
    thread.join(Math.max(1, wait.toMillis()));
    return !thread.isAlive();
  }

  /** Stops, scrapes once more, and returns the deltas; empty when that last scrape failed. */
  public Optional<ServerMetrics> stop() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Optional<PrometheusText> after = scrape(client);
    if (after.isEmpty()) return Optional.empty();
    synchronized (this) {
      return Optional.of(read(before, during, after.get()));
    }
  }

  /**
   * A level's {@link ServerMetrics} from its scrapes: counter deltas (after minus before), each gauge's peak over the
   * scrapes taken during the level and the one after it, and its mean over those taken during it (the one after, when
   * none was): the scrape after comes once the level's requests have ended, when the queue and the KV cache have
   * emptied, and would pull a short level's mean towards idle.
   *
   * @param before the scrape before the level's first request
   * @param during the scrapes while it ran, in order
   * @param after  the scrape after its last request ended
   */
  public static ServerMetrics read(PrometheusText before, List<PrometheusText> during, PrometheusText after) {
    Map<String, Double> peaks = new HashMap<>();
    Map<String, Double> sums = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    List<PrometheusText> samples = new ArrayList<>(during);
    samples.add(after);
    for (PrometheusText sample : samples) {
      boolean averaged = sample != after || during.isEmpty();
      sample.series().forEach((name, value) -> {
        if ("gauge".equals(sample.typeOf(name))) {
          peaks.merge(name, value, Math::max);
          if (averaged) {
            sums.merge(name, value, Double::sum);
            counts.merge(name, 1, Integer::sum);
          }
        }
      });
    }
    Map<String, Double> means = new HashMap<>();
    sums.forEach((name, sum) -> means.put(name, sum / counts.get(name)));
    Map<String, Double> deltas = new HashMap<>();
    after.series().forEach((name, value) -> {
      // A counter series that first appears during the level (a new label set) started from 0; a _created
      // series is a counter's creation time, not a count.
      boolean created = name.replaceFirst("\\{.*", "").endsWith("_created");
      if (!created && !"gauge".equals(after.typeOf(name))) {
        deltas.put(name, value - before.series().getOrDefault(name, 0.0));
      }
    });
    return new ServerMetrics(after.family(), deltas, peaks, samples.size(), means);
  }
}
