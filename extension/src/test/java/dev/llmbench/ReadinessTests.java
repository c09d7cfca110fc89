package dev.llmbench;

import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
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

  /** A key-protected server: every route answers 401 without the right bearer key. */
  static MockWebServer keyProtected() throws IOException {
    MockWebServer server = new MockWebServer();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(401)
            .body("{\"error\":{\"message\":\"Invalid API key\",\"type\":\"invalid_request_error\"}}").build();
      }
    });
    server.start();
    return server;
  }

  @Test
  void aMissingKeyFailsAtOnceNamingTheVariableWithTheDefaultTwentyMinuteLimit() throws IOException {
    try (MockWebServer server = keyProtected()) {
      long start = System.nanoTime();
      BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.api-key-env", "LLMBENCH_TEST_KEY_THAT_IS_NOT_SET").tests().assertThatEvents()
          .haveExactly(1, event(test(), finishedWithFailure(instanceOf(EndpointNotReadyException.class), message(m ->
              m.contains("cannot become ready") && m.contains("GET /health answered 401 Unauthorized")
                  && m.contains("LLMBENCH_TEST_KEY_THAT_IS_NOT_SET, which is not set") && m.contains("llmbench.api-key-env")))));
      org.assertj.core.api.Assertions.assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval")
          .isLessThan(Duration.ofMinutes(1));
    }
  }

  @Test
  void aRefusedKeyNamesTheVariableAndNeverItsValue() throws Exception {
    String home = System.getenv("HOME");
    org.junit.jupiter.api.Assumptions.assumeTrue(home != null && home.length() > 1, "needs HOME set, as a stand-in key");
    try (MockWebServer server = keyProtected()) {
      BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.api-key-env", "HOME").tests().assertThatEvents()
          .haveExactly(1, event(test(), finishedWithFailure(message(m -> m.contains("HOME, which is set (" + home.length()
              + " characters)") && !m.contains(home)))));
      RecordedRequest probe = server.takeRequest();
      org.assertj.core.api.Assertions.assertThat(probe.getHeaders().get("Authorization")).isEqualTo("Bearer " + home);
    }
  }

  @Test
  void aServerWithNoOpenAiRouteFailsAtOnce() throws IOException {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          return new MockResponse.Builder().code(404).body("Not Found").build();
        }
      });
      server.start();
      long start = System.nanoTime();
      BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", server.url("/").toString()).tests().assertThatEvents()
          .haveExactly(1, event(test(), finishedWithFailure(message(m -> m.contains("GET /health and GET /v1/models both "
              + "answered 404") && m.contains("set llmbench.base-url to the server's root")))));
      org.assertj.core.api.Assertions.assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval")
          .isLessThan(Duration.ofMinutes(1));
    }
  }

  @Test
  void httpsToAPlainHttpServerFailsAtOnceNamingTheScheme() throws Exception {
    // A plain-HTTP server as uvicorn (vLLM, SGLang) is one: a TLS hello is no request, so it answers 400 and closes.
    try (ServerSocket plain = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread answering = new Thread(() -> {
        while (!plain.isClosed()) {
          try (java.net.Socket s = plain.accept()) {
            s.getInputStream().read(new byte[4096]);
            s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n".getBytes(
                java.nio.charset.StandardCharsets.US_ASCII));
          } catch (IOException closed) {
            // the test is over, or the client gave up
          }
        }
      });
      answering.setDaemon(true);
      answering.start();
      String https = "https://127.0.0.1:" + plain.getLocalPort();
      long start = System.nanoTime();
      BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", https).tests().assertThatEvents()
          .haveExactly(1, event(test(), finishedWithFailure(message(m -> m.contains("does not speak the URL's protocol")
              && m.contains("use http:// for a plain-HTTP server")))));
      org.assertj.core.api.Assertions.assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval")
          .isLessThan(Duration.ofMinutes(1));
    }
  }

  /**
   * The default readiness limit of 20 minutes, and a probe a minute: a failure that comes within a minute came
   * at the first probe, however busy the machine.
   */
  @LlmEndpoint(readyPollInterval = "1m")
  static class DefaultLimitTestCases {
    @Test
    void ready(LlmClient llm) {}
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

  @LlmEndpoint(embeddedProfile = "instant", embeddedStartupDelay = "5s", readyTimeout = "30s", readyPollInterval = "1s")
  static class SlowStartTestCases {
    @Test
    void ready(EndpointInfo info) {
      // The 5 s delay runs from the engine's start, just before the wait; probes come every second. The
      // first probe sees 503 and the sixth or so sees it ready. Counted in polls, not held to a stopwatch: a
      // wait that gave up on 503 or took the first 503 for ready reads far less than 4 s, one that missed
      // polls 8 s or more. The margins are whole seconds because a loaded runner makes a probe (the first
      // above all: classes load) late by one: a 1 s delay was once outlasted by the first probe alone.
      org.assertj.core.api.Assertions.assertThat(info.timeToReady()).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(8));
      // The log keeps each change of status once: the loading phase, then ready.
      org.assertj.core.api.Assertions.assertThat(info.readinessLog()).hasSize(2);
      org.assertj.core.api.Assertions.assertThat(info.readinessLog().get(0)).matches("\\+[\\d.]+ (µs|ms|s) GET /health answered 503 .*Loading model.*");
      org.assertj.core.api.Assertions.assertThat(info.readinessLog().get(1)).matches("\\+[\\d.]+ (ms|s) ready");
    }
  }
}
