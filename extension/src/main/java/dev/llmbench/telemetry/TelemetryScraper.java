package dev.llmbench.telemetry;

import dev.llmbench.internal.server.PrometheusText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Scrapes every telemetry endpoint once before a level, every {@code interval} during it, and once after it, on a
 * thread of its own. A scrape that fails is counted, never thrown: an exporter that does not answer costs the
 * level its GPU figures and adds a warning, nothing more. An answer that waiting cannot change (401, 403, 404,
 * 405, 410: a key, or a URL that is not an exporter's) stops the scraping of that URL for the level.
 */
final class TelemetryScraper {

  /** How long one scrape may take: an exporter answers in milliseconds, and a level must not wait for a dead one. */
  static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(2);

  /** Answers that say the URL or the key is wrong: scraping again cannot turn them into figures. */
  static final Set<Integer> FINAL = Set.of(401, 403, 404, 405, 410);

  private final List<URI> urls;
  private final Duration interval;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(SCRAPE_TIMEOUT)
      .proxy(HttpClient.Builder.NO_PROXY).build();
  private final Map<URI, List<TelemetrySample>> samples = new LinkedHashMap<>();
  private final Map<URI, List<String>> failures = new LinkedHashMap<>();
  private final Set<URI> givenUp = ConcurrentHashMap.newKeySet();
  private final Thread thread;
  private volatile boolean stopped;

  private TelemetryScraper(List<URI> urls, Duration interval) {
    this.urls = List.copyOf(urls);
    this.interval = interval;
    for (URI u : urls) {
      samples.put(u, new ArrayList<>());
      failures.put(u, new ArrayList<>());
    }
    scrapeAll(); // before the level
    this.thread = new Thread(this::poll, "llmbench-telemetry");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Starts scraping {@code urls}; the first scrape of each is taken before this returns. */
  public static TelemetryScraper start(List<URI> urls, Duration interval) {
    return new TelemetryScraper(urls, interval);
  }

  private void poll() {
    while (!stopped) {
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      if (!stopped) scrapeAll();
    }
  }

  private void scrapeAll() {
    for (URI u : urls) {
      if (givenUp.contains(u)) continue;
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(u).timeout(SCRAPE_TIMEOUT).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        long at = System.nanoTime();
        if (FINAL.contains(r.statusCode())) {
          givenUp.add(u);
          failed(u, "HTTP " + r.statusCode() + ", which waiting cannot change: not scraped again this level");
        } else if (r.statusCode() != 200) {
          failed(u, "HTTP " + r.statusCode());
        } else {
          TelemetrySample s = new TelemetrySample(at, PrometheusText.parse(r.body()));
          synchronized (this) {
            samples.get(u).add(s);
          }
        }
      } catch (IOException e) {
        failed(u, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private synchronized void failed(URI u, String why) {
    failures.get(u).add(why);
  }

  /** Stops, scrapes each endpoint once more, and reads the level's GPU figures and warnings from every sample. */
  public TelemetryReading stop(long outputTokens) {
    stopped = true;
    thread.interrupt();
    try {
      thread.join(SCRAPE_TIMEOUT.toMillis() * (urls.size() + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    scrapeAll(); // after the level
    synchronized (this) {
      return GpuFigures.read(samples, failures, outputTokens);
    }
  }
}
