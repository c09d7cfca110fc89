package dev.llmbench.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The scraper never waits on what waiting cannot fix: a URL that is not an exporter's is asked once a level. */
class TelemetryScraperTests {

  @Test
  void aUrlThatAnswers404IsScrapedOnceWhileAnExporterBesideItIsScrapedAtTheInterval() throws IOException {
    AtomicInteger missing = new AtomicInteger();
    AtomicInteger exporter = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/nothing", x -> {
      missing.incrementAndGet();
      x.sendResponseHeaders(404, -1);
      x.close();
    });
    server.createContext("/metrics", x -> {
      exporter.incrementAndGet();
      byte[] body = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\"} 50\n".getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort();
      URI gone = URI.create(base + "/nothing");
      TelemetryScraper scraper = TelemetryScraper.start(List.of(gone, URI.create(base + "/metrics")), Duration.ofMillis(20));
      // Event, not time: by the exporter's sixth scrape the 404 URL has had five chances to be asked again.
      await().atMost(Duration.ofSeconds(60)).until(() -> exporter.get() >= 6);
      TelemetryReading reading = scraper.stop(100);
      assertThat(missing.get()).as("scrapes of the URL that answered 404").isEqualTo(1);
      assertThat(reading.warnings()).anySatisfy(w -> assertThat(w).contains(gone.toString())
          .contains("HTTP 404, which waiting cannot change: not scraped again this level"));
    } finally {
      server.stop(0);
    }
  }
}
