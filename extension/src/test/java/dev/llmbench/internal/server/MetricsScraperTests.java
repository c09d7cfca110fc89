package dev.llmbench.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.client.OpenAiClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

class MetricsScraperTests {

  @Test
  void aMetricsRouteThatStartsRefusingIsNotPolledAgain() throws Exception {
    AtomicInteger scrapes = new AtomicInteger();
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          // Twice a gauge, then the key is refused, as a gateway does once its token expires.
          return scrapes.incrementAndGet() <= 2
              ? new MockResponse.Builder().code(200).body("# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 3\n").build()
              : new MockResponse.Builder().code(401).body("{\"error\":\"Unauthorized\"}").build();
        }
      });
      server.start();
      try (OpenAiClient client = new OpenAiClient(server.url("/").uri(), null, Duration.ofSeconds(10), Duration.ofSeconds(10))) {
        MetricsScraper scraper = MetricsScraper.start(client).orElseThrow();
        // Joined, not slept on: the poller ends by itself at the 401, or this times out.
        assertThat(scraper.pollingEnded(Duration.ofSeconds(30))).as("polling ended after the 401").isTrue();
        assertThat(scrapes.get()).as("the first scrape, one poll with the gauge, the poll refused").isEqualTo(3);
        assertThat(scraper.stop()).as("the scrape after the level is refused too: no deltas").isEmpty();
        assertThat(scrapes.get()).isEqualTo(4);
      }
    }
  }
}
