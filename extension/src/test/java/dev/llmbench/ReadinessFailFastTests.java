package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.result.StopReason;
import dev.llmbench.server.EndpointNotReadyException;
import dev.llmbench.testkit.BenchKit;
import dev.llmbench.testkit.Messages;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Answers that waiting cannot change end the readiness wait at its first probe, on every route the probe
 * calls, with a message that says what to fix; answers that do change (429) are still waited on.
 *
 * <p>Each fixture polls once a minute within a 3-minute limit, so a wait that gives up within a minute gave
 * up at its first probe: the bound is the probe interval itself, not a guess at how fast the machine is.
 */
class ReadinessFailFastTests {

  private static final Duration PROBE_INTERVAL = Duration.ofMinutes(1);
  private static final String UNSET = "LLMBENCH_TEST_KEY_THAT_IS_NOT_SET";
  private static final String KEY = "sk-llmbench-test-0123456789";

  /** The 127.0.0.1 address of the embedded engine, on the port it was given. */
  private static final String EMBEDDED = "http://127.0.0.1:{n}/";

  /**
   * Runs the fixture with {@code configuration}; asserts that its one test failed, within one probe interval, with
   * {@code message} (a {@link Messages#pattern}) followed by how soon it gave up and why.
   */
  private static AbstractThrowableAssert<?, ? extends Throwable> failsAtTheFirstProbe(String message,
      String... configuration) {
    long start = System.nanoTime();
    BenchKit.Run run = BenchKit.run(OnceAMinuteTestCases.class, configuration);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one probe interval").isLessThan(PROBE_INTERVAL);
    return assertThat(run).test("ready(LlmClient)").failedWith(EndpointNotReadyException.class)
        .hasMessageMatching(Messages.pattern(message + " (gave up after {duration} instead of waiting out "
            + "the limit 3m, llmbench.ready.timeout, since this does not clear by waiting)"));
  }

  private static String home() {
    String home = System.getenv("HOME");
    Assumptions.assumeTrue(home != null && home.length() > 1, "needs HOME set, as a stand-in key");
    return home;
  }

  @Test
  void vllmsLayoutWithoutAKeyFailsAtTheModelListNamingTheVariable() {
    // vLLM --api-key: /health answers 200 to anyone, /v1/models 401 without the key.
    failsAtTheFirstProbe("LLM endpoint " + EMBEDDED + " cannot become ready: GET /v1/models answered 401 Unauthorized: the "
            + "bearer key comes from the environment variable " + UNSET + ", which is not set; set it to the server's key, or "
            + "name another variable with llmbench.api-key-env",
        "llmbench.embedded.api-key", KEY, "llmbench.api-key-env", UNSET);
  }

  @Test
  void vllmsLayoutWithAWrongKeySaysTheVariableIsSetAndNeverItsValue() {
    String home = home();
    failsAtTheFirstProbe("LLM endpoint " + EMBEDDED + " cannot become ready: GET /v1/models answered 401 Unauthorized: the "
            + "bearer key comes from the environment variable HOME, which is set (" + home.length() + " characters); set it "
            + "to the server's key, or name another variable with llmbench.api-key-env",
        "llmbench.embedded.api-key", KEY, "llmbench.api-key-env", "HOME").hasMessageNotContaining(home);
  }

  @Test
  void aGatewayThatKeysEverythingFailsAtTheHealthRoute() {
    failsAtTheFirstProbe("LLM endpoint " + EMBEDDED + " cannot become ready: GET /health answered 401 Unauthorized: the "
            + "bearer key comes from the environment variable " + UNSET + ", which is not set; set it to the server's key, or "
            + "name another variable with llmbench.api-key-env",
        "llmbench.embedded.api-key", KEY, "llmbench.embedded.api-key-routes", "all", "llmbench.api-key-env", UNSET);
  }

  @Test
  void aGatewayRefusingAWrongKeyWith403FailsAtOnce() {
    String home = home();
    failsAtTheFirstProbe("LLM endpoint " + EMBEDDED + " cannot become ready: GET /health answered 403 Forbidden: the bearer "
            + "key comes from the environment variable HOME, which is set (" + home.length() + " characters); set it to the "
            + "server's key, or name another variable with llmbench.api-key-env",
        "llmbench.embedded.api-key", KEY, "llmbench.embedded.api-key-routes", "all", "llmbench.api-key-env", "HOME")
        .hasMessageNotContaining(home);
  }

  @Test
  void theRightKeyIsReadyInBothLayouts() {
    // The control: the same layouts with the key the server expects become ready, key sent on every route.
    String home = home();
    assertThat(BenchKit.run(OnceAMinuteTestCases.class, "llmbench.embedded.api-key", home, "llmbench.api-key-env", "HOME"))
        .passed("ready(LlmClient)");
    assertThat(BenchKit.run(OnceAMinuteTestCases.class, "llmbench.embedded.api-key", home,
        "llmbench.embedded.api-key-routes", "all", "llmbench.api-key-env", "HOME")).passed("ready(LlmClient)");
  }

  /** A server whose routes answer as {@code routes} say (by path; the argument is how often the path was asked); 404 elsewhere. */
  private static MockWebServer serving(Map<String, Function<Integer, MockResponse>> routes) throws IOException {
    Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    MockWebServer server = new MockWebServer();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        Function<Integer, MockResponse> answer = routes.get(path);
        if (answer == null) return new MockResponse.Builder().code(404).body("{\"detail\":\"Not Found\"}").build();
        return answer.apply(asked.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet());
      }
    });
    server.start();
    return server;
  }

  private static Function<Integer, MockResponse> always(int code, String body) {
    return n -> new MockResponse.Builder().code(code).body(body).build();
  }

  private static final String MODELS = "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}";
  private static final String COMPLETION = "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
      + "\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":\"length\"}],"
      + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";

  @Test
  void aServerWithHealthButNoModelListFailsAskingForTheModel() throws IOException {
    try (MockWebServer server = serving(Map.of("/health", always(200, "{}")))) {
      failsAtTheFirstProbe("LLM endpoint " + server.url("/") + " cannot become ready: GET /health answered 200 but GET "
          + "/v1/models answered 404, so the server lists no model to send requests for; set llmbench.model to the model id "
          + "it serves", "llmbench.base-url", server.url("/").toString());
    }
  }

  @Test
  void plainHttpToATlsPortFailsAtOnceNamingTheScheme() throws IOException {
    // nginx's answer to plain HTTP on its TLS port: a 400 that no amount of waiting changes.
    try (MockWebServer server = serving(Map.of("/health", always(400,
        "<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head></html>")))) {
      failsAtTheFirstProbe("LLM endpoint " + server.url("/") + " cannot become ready: GET /health answered 400 <html><head>"
          + "<title>400 The plain HTTP request was sent to HTTPS port</title></head></html>, a client error that waiting does "
          + "not change; check llmbench.base-url (http:// to a TLS port answers 400, or the wrong server) and "
          + "llmbench.headers", "llmbench.base-url", server.url("/").toString());
    }
  }

  @Test
  void aModelListThatIsNoModelListFailsAtOnce() throws IOException {
    // A web page at the address (a UI, a login page) answers 200 on every route.
    String page = "<!doctype html><html><body>Welcome</body></html>";
    try (MockWebServer server = serving(Map.of("/health", always(200, page), "/v1/models", always(200, page)))) {
      failsAtTheFirstProbe("LLM endpoint " + server.url("/") + " cannot become ready: GET /v1/models answered 200 with "
          + page + ", which is not an OpenAI model list ({\"data\": [{\"id\": ...}]}), so no OpenAI-compatible server is at "
          + "this address; set llmbench.base-url to the server's root, e.g. http://host:8000", "llmbench.base-url",
          server.url("/").toString());
    }
  }

  @Test
  void aCompletionRouteThatRefusesTheMethodFailsAtOnce() throws IOException {
    try (MockWebServer server = serving(Map.of("/health", always(200, "{}"), "/v1/models", always(200, MODELS),
        "/v1/chat/completions", always(405, "{\"detail\":\"Method Not Allowed\"}")))) {
      failsAtTheFirstProbe("LLM endpoint " + server.url("/") + " cannot become ready for POST /v1/chat/completions: a "
          + "1-token completion to /v1/chat/completions answered HTTP 405: Method Not Allowed, a client error that waiting "
          + "does not change; check llmbench.base-url and llmbench.api (chat or completions)", "llmbench.base-url",
          server.url("/").toString());
    }
  }

  @Test
  void aRateLimitedModelListIsWaitedOut() throws IOException {
    // 429 clears by itself: the wait goes on, and the third probe finds the server ready.
    try (MockWebServer server = serving(Map.of("/health", always(200, "{}"),
        "/v1/models", n -> n <= 2 ? new MockResponse.Builder().code(429).body("{\"error\":\"slow down\"}").build()
            : new MockResponse.Builder().code(200).body(MODELS).build(),
        "/v1/chat/completions", always(200, COMPLETION)))) {
      assertThat(BenchKit.run(QuickPollTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.network.samples", "0")).passed("ready(EndpointInfo)");
    }
  }

  @Test
  void aKeyRefusedDuringALevelStopsItAfterItsFirstRound() throws IOException {
    // Ready with the key; then the gateway refuses it (revoked, expired) for every request of the level.
    try (MockWebServer server = serving(Map.of("/health", always(200, "{}"), "/v1/models", always(200, MODELS),
        "/v1/chat/completions", n -> n == 1 ? new MockResponse.Builder().code(200).body(COMPLETION).build()
            : new MockResponse.Builder().code(401).body("{\"error\":{\"message\":\"key revoked\"}}").build()))) {
      assertThat(BenchKit.run(RefusedLevelTestCases.class, "llmbench.base-url", server.url("/").toString(),
          "llmbench.network.samples", "0")).passed("C=2");
    }
  }

  static class RefusedLevelTestCases {
    @ConcurrencySweep(2)
    @Measurement(duration = "10m")
    @Warmup(requests = 0)
    void sweep(SweepLevelResult r) {
      // Its first 2 answers refused, it stops: not 10 minutes of refused requests as fast as they come back.
      assertThat(r.stopReason()).isEqualTo(StopReason.REFUSED);
      assertThat(r.requestCount()).as("the first round, and at most one sent as the round came back").isBetween(2L, 3L);
      assertThat(r.errorsByType()).containsOnlyKeys("HTTP 401");
      assertThat(r.warnings()).anySatisfy(w -> assertThat(w).startsWith("the level stopped sending after ")
          .contains("llmbench.api-key-env"));
    }
  }

  @LlmEndpoint(readyPollInterval = "1m", readyTimeout = "3m")
  static class OnceAMinuteTestCases {
    @Test
    void ready(LlmClient llm) {}
  }

  @LlmEndpoint(readyPollInterval = "50ms", readyTimeout = "1m")
  static class QuickPollTestCases {
    @Test
    void ready(EndpointInfo info) {
      assertThat(info.readinessLog()).anyMatch(l -> l.contains("GET /v1/models answered 429"));
      assertThat(info.readinessLog().get(info.readinessLog().size() - 1)).endsWith("ready");
    }
  }
}
