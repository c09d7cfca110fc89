package dev.llmbench.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.Measurement;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.result.RoundTrip;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The round trip to the endpoint, timed once it is ready and reported beside TTFT. */
class NetworkBaselineTests {

  @Test
  void theEndpointCarriesItsRoundTripAndTheTableSetsItBesideTtft() throws IOException {
    BenchKit.Run run = BenchKit.run(TimedTestCases.class);
    assertThat(run).passed("C=1");
    String table = Files.readString(run.sweepDir(TimedTestCases.class, "sweep").resolve("table.txt"));
    assertThat(table).containsPattern("network round trip to embedded fixed-20ms: median [0-9.]+ (µs|ms) \\(min .*\\) over 5 × "
        + "GET /health; lowest TTFT p50 [0-9.]+ ms at C= 1, of which the network is at most [0-9.]+%");
    assertThat(Files.readString(run.sweepDir(TimedTestCases.class, "sweep").resolve("C=1.json")))
        .contains("\"network_round_trip\"", "\"request\" : \"GET /health\"", "\"samples_ms\"");
  }

  @Test
  void noSamplesMeansNoRoundTrip() {
    assertThat(BenchKit.run(UntimedTestCases.class, "llmbench.network.samples", "0")).passed("C=1");
  }

  @LlmEndpoint(embeddedProfile = "fixed-20ms")
  static class TimedTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 2)
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level, EndpointInfo endpoint) {
      RoundTrip rtt = endpoint.roundTrip().orElseThrow();
      assertThat(rtt.samples()).hasSize(5);
      // Every TTFT holds one round trip and a 20 ms step: the fastest round trip is below the fastest TTFT.
      assertThat(rtt.min()).isLessThan(level.ttft().min().orElseThrow());
      assertThat(level.endpoint().roundTrip()).contains(rtt);
    }
  }

  @LlmEndpoint(embeddedProfile = "instant")
  static class UntimedTestCases {
    @ConcurrencySweep(1)
    @Workload(maxTokens = 2)
    @Measurement(requests = 2)
    @Warmup(requests = 0)
    void sweep(EndpointInfo endpoint) {
      assertThat(endpoint.roundTrip()).isEmpty();
    }
  }
}
