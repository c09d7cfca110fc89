package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** A server that is ready but fails the load: every level still finishes, counts its errors and is reported. */
class FailingServerSweepTests {

  /** Answers the readiness probes; of the rest, odd requests get a 503, even ones a stream cut by bad JSON. */
  static final class FlakyServer extends Dispatcher {
    final AtomicInteger requests = new AtomicInteger();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getUrl().encodedPath();
      if (path.equals("/health")) return new MockResponse.Builder().body("{\"status\":\"ok\"}").build();
      if (path.equals("/v1/models")) return new MockResponse.Builder().body("{\"data\":[{\"id\":\"m\"}]}").build();
      if (!path.equals("/v1/chat/completions")) return new MockResponse.Builder().code(404).build();
      if (request.getBody().utf8().contains("\"max_tokens\":1,")) {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json")
            .body("{\"choices\":[{\"message\":{\"content\":\"Hi\"},\"finish_reason\":\"length\"}]}").build();
      }
      if (requests.incrementAndGet() % 2 == 1) {
        return new MockResponse.Builder().code(503).body("{\"error\":{\"message\":\"engine overloaded\"}}").build();
      }
      return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
          .body("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {broken\n\n").build();
    }
  }

  @Test
  void errorsAreCountedByTypeAndEveryLevelIsStillReported() throws Exception {
    BenchKit.Run run;
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new FlakyServer());
      server.start();
      run = BenchKit.run(FlakyTestCases.class, "llmbench.base-url", server.url("/").toString());
      // In parentheses after "not JSON", the JSON parser's own words: Jackson's to choose.
      assertThat(run).level("C=1").failedWith(AssertionError.class).hasMessageMatching(Messages.pattern("""
          C=1: expected no failed requests but 4 of 4 failed:
            - HTTP 503: 2 (e.g. engine overloaded)
            - CORRUPT_STREAM: 2 (e.g. an event is not JSON: {*}; data: {broken)"""));
      // At C=2 the two kinds come in either order: which was seen first is the schedule's to choose.
      assertThat(run).level("C=2").failedWith(AssertionError.class)
          .hasMessageStartingWith("C=2: expected no failed requests but 4 of 4 failed:\n")
          .hasMessageContainingAll("\n  - HTTP 503: 2 (e.g. engine overloaded)", "\n  - CORRUPT_STREAM: 2 (e.g. an event is not JSON: ");
    }
    Path dir = run.sweepDir(FlakyTestCases.class, "sweep");
    for (String level : new String[] {"C=1", "C=2"}) {
      var json = ResultJson.read(Files.readString(dir.resolve(level + ".json")));
      assertThat(json.get("failed").asInt()).isEqualTo(4);
      assertThat(json.get("llmbench").get("errors_by_type").get("HTTP 503").asInt()).isEqualTo(2);
    }
    assertThat(Files.readString(dir.resolve("table.txt"))).contains("C= 1 | 0/4 ok (4 err)").contains("C= 2 | 0/4 ok (4 err)");
    assertThat(dir.resolve("index.html")).exists();
  }

  @LlmEndpoint(readyTimeout = "10s", readyPollInterval = "100ms")
  static class FlakyTestCases {
    @ConcurrencySweep({1, 2})
    @Workload(maxTokens = 8)
    @Measurement(requests = 4)
    @Warmup(requests = 0)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }

  /**
   * A server that answers the readiness probes and dies at the warm-up's first request: every measured request is
   * refused. Its client figures over a window of refusals (a few milliseconds) were once read as saturation.
   */
  @Test
  void aLevelOfRefusedConnectionsIsNeverClientBound() throws Exception {
    MockWebServer server = new MockWebServer();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        if (path.equals("/health")) return new MockResponse.Builder().body("{\"status\":\"ok\"}").build();
        if (path.equals("/v1/models")) return new MockResponse.Builder().body("{\"data\":[{\"id\":\"m\"}]}").build();
        if (request.getBody().utf8().contains("\"max_tokens\":1,")) {
          return new MockResponse.Builder().addHeader("Content-Type", "application/json")
              .body("{\"choices\":[{\"message\":{\"content\":\"Hi\"},\"finish_reason\":\"length\"}]}").build();
        }
        Thread killer = new Thread(() -> {
          try {
            server.close();
          } catch (Exception e) {
            // closed already
          }
        });
        killer.start();
        return new MockResponse.Builder().onRequestStart(new mockwebserver3.SocketEffect.CloseSocket()).build();
      }
    });
    BenchKit.Run run;
    try {
      server.start();
      run = BenchKit.run(DyingTestCases.class, "llmbench.base-url", server.url("/").toString());
    } finally {
      server.close();
    }
    Path dir = run.sweepDir(DyingTestCases.class, "sweep");
    var json = ResultJson.read(Files.readString(dir.resolve("C=16.json")));
    assertThat(json.get("completed").asInt()).isZero();
    assertThat(json.get("llmbench").get("errors_by_type").get("CONNECTION").asInt()).isPositive();
    assertThat(json.get("llmbench").path("findings").toString()).doesNotContain("CLIENT_BOUND");
    assertThat(Files.readString(dir.resolve("table.txt"))).contains("C=16 |  0/16 ok (16 err)").doesNotContain("CLIENT-BOUND");
  }

  @LlmEndpoint(readyTimeout = "10s", readyPollInterval = "100ms")
  static class DyingTestCases {
    @ConcurrencySweep(16)
    @Workload(maxTokens = 8)
    @Measurement(requests = 16)
    void sweep(SweepLevelResult level) {
      LlmBenchAssertions.assertThat(level).hasNoErrors();
    }
  }
}
