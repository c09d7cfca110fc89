package dev.llmbench.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.result.RoundTrip;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/** The network baseline: what it times, how many, and when it gives up. */
class RoundTripsTests {

  @Test
  void timesEachRoundTripAfterAnUntimedOneThatOpensTheConnection() throws IOException, InterruptedException {
    try (MockWebServer server = new MockWebServer()) {
      // A server 30 ms away: every answer's headers arrive 30 ms after the request.
      for (int i = 0; i < 4; i++) server.enqueue(new MockResponse.Builder().body("ok").headersDelay(30, TimeUnit.MILLISECONDS).build());
      server.start();
      try (OpenAiClient client = new OpenAiClient(server.url("/").uri(), null, Duration.ofSeconds(5), Duration.ofSeconds(5))) {
        RoundTrip rtt = RoundTrips.measure(client, "/health", 3).orElseThrow();
        assertThat(rtt.request()).isEqualTo("GET /health");
        assertThat(rtt.samples()).hasSize(3).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ofMillis(30)));
        assertThat(server.getRequestCount()).isEqualTo(4);
        assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/health");
      }
    }
  }

  @Test
  void aRouteThatStopsAnsweringGivesNoBaselineRatherThanAWrongOne() throws IOException {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().body("ok").build());
      server.enqueue(new MockResponse.Builder().code(503).body("busy").build());
      server.start();
      try (OpenAiClient client = new OpenAiClient(server.url("/").uri(), null, Duration.ofSeconds(5), Duration.ofSeconds(5))) {
        assertThat(RoundTrips.measure(client, "/health", 3)).isEmpty();
        assertThat(RoundTrips.measure(client, "/health", 0)).isEmpty();
      }
    }
  }

  @Test
  void theMedianResistsOneSlowSample() {
    RoundTrip rtt = new RoundTrip("GET /health", List.of(ms(1), ms(40), ms(2), ms(1), ms(3)));
    assertThat(rtt.median()).isEqualTo(ms(2));
    assertThat(rtt.min()).isEqualTo(ms(1));
    assertThat(rtt.max()).isEqualTo(ms(40));
    assertThat(new RoundTrip("GET /health", List.of(ms(1), ms(3))).median()).isEqualTo(ms(2));
    assertThat(rtt.toString()).isEqualTo("median 2.0 ms (min 1.0 ms, max 40.0 ms) over 5 × GET /health");
  }

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }
}
