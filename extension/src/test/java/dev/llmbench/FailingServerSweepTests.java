package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.assertions.LlmBenchAssertions;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.testkit.BenchKit;
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
      run.tests().assertThatEvents()
          .haveExactly(1, event(displayName("C=1"), finishedWithFailure(message(m ->
              m.contains("expected no failed requests but 4 of 4 failed") && m.contains("HTTP 503: 2")
                  && m.contains("CORRUPT_STREAM: 2") && m.contains("engine overloaded") && m.contains("{broken")))))
          .haveExactly(1, event(displayName("C=2"), finishedWithFailure(message(m -> m.contains("4 of 4 failed")))));
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
}
