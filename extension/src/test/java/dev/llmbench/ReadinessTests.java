package dev.llmbench;

import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReadinessTests {

  @Test
  void serverThatNeverBecomesReadyFailsNamingUrlLastStatusAndTimeWaited() {
    long start = System.nanoTime();
    BenchKit.run(NeverReadyTestCases.class).tests().assertThatEvents()
        .haveExactly(1, event(test(), finishedWithFailure(instanceOf(EndpointNotReadyException.class),
            message(m -> m.startsWith("LLM endpoint http://127.0.0.1:") && m.contains("was not ready after")
                && m.contains("503") && m.contains("Loading model") && m.contains("llmbench.ready.timeout")))))
        // The second test does not wait again: it fails at once with the first outcome.
        .haveExactly(1, event(test(), finishedWithFailure(message(m -> m.startsWith("not waited for again")))));
    org.assertj.core.api.Assertions.assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void closedPortFailsWithTheConnectionError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    // The URL comes from a configuration parameter, as a user would point a suite at a deployment.
    BenchKit.run(ClosedPortTestCases.class, "llmbench.base-url", "http://127.0.0.1:" + port).tests().assertThatEvents().haveExactly(1, event(finishedWithFailure(
            message(m -> m.contains("http://127.0.0.1:" + port) && m.contains("ConnectException")))));
  }

  @Test
  void startupDelayIsWaitedOut() {
    BenchKit.run(SlowStartTestCases.class).assertAllPass(1).tests().assertThatEvents()
        .haveExactly(1, event(test("ready"), finishedSuccessfully()));
  }

  @LlmEndpoint(embeddedProfile = "instant", embeddedStartupDelay = "1h", readyTimeout = "1500ms", readyPollInterval = "200ms")
  static class NeverReadyTestCases {
    @Test
    void first(LlmClient llm) {}

    @Test
    void second(LlmClient llm) {}
  }

  @LlmEndpoint(readyTimeout = "1s", readyPollInterval = "200ms")
  static class ClosedPortTestCases {
    @Test
    void unreachable(LlmClient llm) {}
  }

  @LlmEndpoint(embeddedProfile = "instant", embeddedStartupDelay = "800ms", readyTimeout = "10s", readyPollInterval = "100ms")
  static class SlowStartTestCases {
    @Test
    void ready(EndpointInfo info) {
      // The 800 ms delay runs from the engine's start; the wait starts a little later (class loading).
      org.assertj.core.api.Assertions.assertThat(info.timeToReady()).isBetween(Duration.ofMillis(300), Duration.ofMillis(900));
      // The log keeps each change of status once: the loading phase, then ready.
      org.assertj.core.api.Assertions.assertThat(info.readinessLog()).hasSize(2);
      org.assertj.core.api.Assertions.assertThat(info.readinessLog().get(0)).matches("\\+[\\d.]+ (µs|ms|s) GET /health answered 503 .*Loading model.*");
      org.assertj.core.api.Assertions.assertThat(info.readinessLog().get(1)).matches("\\+[\\d.]+ (ms|s) ready");
    }
  }
}
