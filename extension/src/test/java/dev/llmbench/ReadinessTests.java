package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

class ReadinessTests {

  /** How a wait that ended at its first probe says so, under the default limit of 20 minutes. */
  private static final String AT_THE_FIRST_PROBE = " (gave up after {duration} instead of waiting out "
      + "the limit 20m, llmbench.ready.timeout, since this does not clear by waiting)";

  @Test
  void serverThatNeverBecomesReadyFailsNamingUrlLastStatusAndTimeWaited() {
    long start = System.nanoTime();
    BenchKit.Run run = BenchKit.run(NeverReadyTestCases.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    String notReady = "LLM endpoint http://127.0.0.1:{n}/ was not ready after {duration} (limit 1.5s, llmbench.ready.timeout); last status: "
        + "GET /health answered 503 {\"error\":{\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}. Check that "
        + "the server is running and loading the model, or raise llmbench.ready.timeout.";
    assertThat(run).test("first(LlmClient)").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern(notReady));
    // The second test does not wait again: it fails at once with the first outcome.
    assertThat(run).test("second(LlmClient)").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern("not waited for again: " + notReady));
  }

  @Test
  void aProbeStillInFlightAtTheLimitDoesNotHideTheLastAnswer() throws IOException {
    String loading = "{\"error\":{\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}";
    AtomicInteger probes = new AtomicInteger();
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          MockResponse.Builder answer = new MockResponse.Builder().code(503).body(loading);
          // The first probe is answered at once; later ones a byte every 50 ms, so that the wait's limit comes
          // while a probe still reads, and its interruption lands between two reads.
          if (probes.incrementAndGet() > 1) answer.body(loading + " ".repeat(200)).throttleBody(1, 50, TimeUnit.MILLISECONDS);
          return answer.build();
        }
      });
      server.start();
      BenchKit.Run run = BenchKit.run(InFlightAtTheLimitTestCases.class, "llmbench.base-url", server.url("/").toString());
      assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class).hasMessageMatching(
          Messages.pattern("LLM endpoint " + server.url("/") + " was not ready after {duration} (limit 4s, llmbench.ready.timeout); last "
              + "status: GET /health answered 503 " + loading + ". Check that the server is running and loading the "
              + "model, or raise llmbench.ready.timeout."));
      assertThat(probes).as("probes: the first answered, the next still in flight at the limit").hasValue(2);
    }
  }

  /**
   * Refused connections are waited on (a server still loading may not listen yet), but when nothing ever answered the
   * failure says where the URL came from and both fixes: a wrong URL is as likely as a slow start.
   */
  @Test
  void closedPortFailsNamingTheUrlWhereItCameFromAndBothFixes() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    // The URL comes from a configuration parameter, as a user would point a suite at a deployment.
    assertThat(BenchKit.run(ClosedPortTestCases.class, "llmbench.base-url", "http://127.0.0.1:" + port))
        .hasSingleFailure().failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(
            "LLM endpoint http://127.0.0.1:" + port + "/ never answered: every connection failed for {duration} (limit 1s, "
                + "llmbench.ready.timeout), the last with ConnectException: Failed to connect to /127.0.0.1:" + port
                + ". Its URL came from configuration parameter llmbench.base-url. Either nothing listens there: check the "
                + "URL's host and port; or the server is still starting: raise llmbench.ready.timeout, e.g. "
                + "-Dllmbench.ready.timeout=2s."));
  }

  /**
   * A URL written in the annotation, at a port nothing listens on (8161, this test's): every progress line says how long
   * the wait has been, its limit and the key that sets it; the failure names the annotation.
   */
  @Test
  void progressLinesShowTheLimitAndItsKeyAndTheFailureNamesTheAnnotation() {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    BenchKit.Run run;
    System.setOut(new PrintStream(captured, true));
    try {
      run = BenchKit.run(AnnotatedClosedPortTestCases.class);
    } finally {
      System.setOut(original);
    }
    assertThat(run).hasSingleFailure().failedWith(EndpointNotReadyException.class).hasMessageMatching(Messages.pattern(
        "LLM endpoint http://127.0.0.1:8161/ never answered: every connection failed for {duration} (limit 2s, "
            + "llmbench.ready.timeout), the last with ConnectException: Failed to connect to /127.0.0.1:8161. Its URL came "
            + "from @LlmEndpoint(baseUrl). Either nothing listens there: check the URL's host and port; or the server is "
            + "still starting: raise llmbench.ready.timeout, e.g. -Dllmbench.ready.timeout=4s."));
    List<String> lines = captured.toString().lines().filter(l -> l.startsWith("[llmbench] waiting for")).toList();
    assertThat(lines).as("progress lines of:%n%s", captured).hasSizeGreaterThanOrEqualTo(2).allSatisfy(l -> assertThat(l)
        .matches(Messages.pattern("[llmbench] waiting for http://127.0.0.1:8161/: {duration} elapsed of the 2s limit "
            + "(llmbench.ready.timeout), last: ConnectException: Failed to connect to /127.0.0.1:8161")));
  }

  @Test
  void startupDelayIsWaitedOut() {
    Duration interval = Duration.ofSeconds(1);
    // The first wait in a JVM loads the client's classes inside its first probe: seconds on a busy runner (once
    // 5.8 s, past the whole delay). A wait on a ready engine first, so that the delay is spent probing.
    try (EmbeddedLlmServer warm = EmbeddedLlmServer.start(PerformanceProfile.INSTANT, 0, Duration.ZERO)) {
      assertThat(BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", warm.baseUrl().toString()))
          .passed("ready(LlmClient)");
    }
    try (EmbeddedLlmServer engine = EmbeddedLlmServer.start(PerformanceProfile.INSTANT, 0, Duration.ofSeconds(6))) {
      BenchKit.Run run = BenchKit.run(SlowStartTestCases.class, "llmbench.base-url", engine.baseUrl().toString());
      assertThat(run).passed("ready(EndpointInfo)");
      // Held against the engine's own clock, not a stopwatch: each probe of /health as the engine saw it, timed from
      // the end of its delay. The wait probed on through the 503s and was ready at the first probe after the delay.
      List<EmbeddedLlmServer.HealthRequest> probes = engine.startupHealthRequests();
      assertThat(probes).as("probes of /health until ready").hasSizeGreaterThanOrEqualTo(3);
      assertThat(probes.subList(0, probes.size() - 1)).allSatisfy(p -> {
        assertThat(p.ready()).isFalse();
        assertThat(p.sinceReady()).isNegative();
      });
      EmbeddedLlmServer.HealthRequest ready = probes.get(probes.size() - 1);
      assertThat(ready.ready()).isTrue();
      // And it missed no probe on the way: a busy runner makes a probe late by a fraction of the interval, a missed
      // poll by a whole one. The first probe pays for loading the client's classes, so its gap is held only below.
      for (int i = 1; i < probes.size(); i++) {
        Duration gap = probes.get(i).sinceReady().minus(probes.get(i - 1).sinceReady());
        assertThat(gap).as("gap before probe %d of %s", i + 1, probes).isGreaterThanOrEqualTo(interval.dividedBy(2));
        if (i > 1) assertThat(gap).as("gap before probe %d of %s", i + 1, probes).isLessThan(interval.multipliedBy(2));
      }
      // The client's own figure covers what the engine saw it wait: from its first probe to the ready one.
      assertThat(SlowStartTestCases.seen.get().timeToReady()).as("the client's time to ready")
          .isGreaterThanOrEqualTo(ready.sinceReady().minus(probes.get(0).sinceReady()));
    }
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
      BenchKit.Run run = BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.api-key-env", "LLMBENCH_TEST_KEY_THAT_IS_NOT_SET");
      assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class).hasMessageMatching(
          Messages.pattern("LLM endpoint " + server.url("/") + " cannot become ready: GET /health answered 401 "
              + "Unauthorized: the bearer key comes from the environment variable LLMBENCH_TEST_KEY_THAT_IS_NOT_SET, which "
              + "is not set; set it to the server's key, or name another variable with llmbench.api-key-env"
              + AT_THE_FIRST_PROBE));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval")
          .isLessThan(Duration.ofMinutes(1));
    }
  }

  @Test
  void aRefusedKeyNamesTheVariableAndNeverItsValue() throws Exception {
    String home = System.getenv("HOME");
    org.junit.jupiter.api.Assumptions.assumeTrue(home != null && home.length() > 1, "needs HOME set, as a stand-in key");
    try (MockWebServer server = keyProtected()) {
      BenchKit.Run run = BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.api-key-env", "HOME");
      assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class).hasMessageMatching(
          Messages.pattern("LLM endpoint " + server.url("/") + " cannot become ready: GET /health answered 401 "
              + "Unauthorized: the bearer key comes from the environment variable HOME, which is set (" + home.length()
              + " characters); set it to the server's key, or name another variable with llmbench.api-key-env"
              + AT_THE_FIRST_PROBE)).hasMessageNotContaining(home);
      RecordedRequest probe = server.takeRequest();
      assertThat(probe.getHeaders().get("Authorization")).isEqualTo("Bearer " + home);
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
      BenchKit.Run run = BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", server.url("/").toString());
      assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class).hasMessageMatching(
          Messages.pattern("LLM endpoint " + server.url("/") + " cannot become ready: GET /health and GET /v1/models "
              + "both answered 404, so no OpenAI-compatible server is at this address; set llmbench.base-url to the "
              + "server's root, e.g. http://host:8000" + AT_THE_FIRST_PROBE));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval")
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
      BenchKit.Run run = BenchKit.run(DefaultLimitTestCases.class, "llmbench.base-url", https);
      // In parentheses, the JDK's own words on the TLS hello that got no TLS answer.
      assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class).hasMessageMatching(
          Messages.pattern("LLM endpoint " + https + "/ cannot become ready: the connection does not speak the URL's "
              + "protocol ({*}); use http:// for a plain-HTTP server and https:// for a TLS one" + AT_THE_FIRST_PROBE));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval")
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
  @TestMethodOrder(MethodOrderer.MethodName.class) // first waits, second is told the outcome
  static class NeverReadyTestCases {
    @Test
    void first(LlmClient llm) {}

    @Test
    void second(LlmClient llm) {}
  }

  /** A probe a second, so that the second probe (from about 1 s, its own timeout the 4 s limit) is the one in flight. */
  @LlmEndpoint(readyTimeout = "4s", readyPollInterval = "1s")
  static class InFlightAtTheLimitTestCases {
    @Test
    void ready(LlmClient llm) {}
  }

  @LlmEndpoint(readyTimeout = "1s", readyPollInterval = "200ms")
  static class ClosedPortTestCases {
    @Test
    void unreachable(LlmClient llm) {}
  }

  @LlmEndpoint(baseUrl = "http://127.0.0.1:8161", readyTimeout = "2s", readyPollInterval = "200ms",
      readyProgressInterval = "500ms")
  static class AnnotatedClosedPortTestCases {
    @Test
    void unreachable(LlmClient llm) {}
  }

  @LlmEndpoint(readyTimeout = "30s", readyPollInterval = "1s")
  static class SlowStartTestCases {
    static final AtomicReference<EndpointInfo> seen = new AtomicReference<>();

    @Test
    void ready(EndpointInfo info) {
      seen.set(info);
      // The log keeps each change of status once: the loading phase, then ready.
      assertThat(info.readinessLog()).hasSize(2);
      assertThat(info.readinessLog().get(0)).matches("\\+[\\d.]+ (µs|ms|s) GET /health answered 503 .*Loading model.*");
      assertThat(info.readinessLog().get(1)).matches("\\+[\\d.]+ (ms|s) ready");
    }
  }
}
