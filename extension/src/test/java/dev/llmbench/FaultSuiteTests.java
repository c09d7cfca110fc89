package dev.llmbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.engine.EmbeddedLlmServer;
import dev.llmbench.engine.EmbeddedOptions;
import dev.llmbench.engine.FaultKind;
import dev.llmbench.engine.PerformanceProfile;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.client.TextCapture;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.result.LoadShape;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fault the embedded engine can act out, sent through the client and the load runner as a level sends
 * them, with the server's own counts compared to the client's: every POST the server received is one
 * request the client counted (nothing lost, nothing sent twice), and every fault the server injected is one
 * failure of the kind docs/failures.md gives it, with its message. Faults hit every 2nd request, so that
 * half of each level fails and half succeeds. The whole-sweep cases (reports, readiness, a mixed server at
 * C=16, secrets) are in {@link FaultSweepTests}.
 */
class FaultSuiteTests {

  /**
   * An idle limit short enough for stalls to end within the suite's seconds, long enough for a busy runner:
   * at a load average of 40 on 2 cores, legal streams went a second without a byte, so 3 s.
   */
  static final Duration IDLE = Duration.ofSeconds(3);
  static final int REQUESTS = 8;

  /**
   * @param fault    the fault kind, injected on every 2nd request
   * @param stream   whether the requests stream
   * @param key      what the client counts the fault as: an error key, or "ok" when it must succeed
   * @param message  a part of the message the user sees, for failures
   */
  record Case(FaultKind fault, boolean stream, String key, String message) {
    @Override
    public String toString() {
      return fault.spec() + (stream ? "" : " (not streamed)") + " -> " + key;
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        new Case(FaultKind.HTTP500, true, "HTTP 500", "llmbench fault injection: internal server error"),
        new Case(FaultKind.HTTP500, false, "HTTP 500", "llmbench fault injection: internal server error"),
        new Case(FaultKind.HTTP429, true, "HTTP 429", "rate limit reached"),
        new Case(FaultKind.HTTP503, true, "HTTP 503", "server overloaded"),
        new Case(FaultKind.HTML, true, "HTTP 502", "an HTML page: 502 Bad Gateway"),
        new Case(FaultKind.DROP, true, "CLOSED_BEFORE_RESPONSE", "the server may have read the request, so it is not resent"),
        new Case(FaultKind.DROP, false, "CLOSED_BEFORE_RESPONSE", "not resent"),
        new Case(FaultKind.SILENT, true, "TIMEOUT", "no byte for longer than llmbench.idle-timeout = 3s"),
        new Case(FaultKind.RESET, true, "CUT_STREAM", "the connection ended mid-stream after 3 events"),
        new Case(FaultKind.CUT, true, "CUT_STREAM", "the connection ended mid-stream after 3 events"),
        new Case(FaultKind.STALL, true, "TIMEOUT", "no byte for longer than llmbench.idle-timeout = 3s"),
        new Case(FaultKind.BADJSON, true, "CORRUPT_STREAM", "an event ended inside its JSON"),
        new Case(FaultKind.BADUTF8, true, "CORRUPT_STREAM", "the stream is not valid UTF-8"),
        new Case(FaultKind.JSONTYPE, true, "CORRUPT_STREAM", "its Content-Type is 'application/json'"),
        new Case(FaultKind.MIDSTREAMERROR, true, "STREAM_ERROR", "the server sent an error: llmbench fault injection"),
        new Case(FaultKind.LONGLINE, true, "ok", ""),
        new Case(FaultKind.CRLF, true, "ok", ""),
        new Case(FaultKind.NODONE, true, "ok", "")).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachFaultIsCountedOnceUnderItsKindAndTheServerAgrees(Case c) {
    EmbeddedOptions options = EmbeddedOptions.builder(PerformanceProfile.INSTANT).faults(c.fault().spec() + ":every2").build();
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(options);
        OpenAiClient client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(20), IDLE)) {
      List<RequestTrace> traces = level(client, c.stream(), 4, REQUESTS);

      assertThat(traces).as("requests the client counted").hasSize(REQUESTS);
      assertThat(server.postsReceived("/v1/chat/completions")).as("POSTs the server received: nothing lost, nothing resent")
          .isEqualTo(REQUESTS);
      assertThat(traces).allSatisfy(t -> assertThat(t.resends()).isZero());
      Map<String, Long> errors = errorsByKey(traces);
      long injected = server.faultsInjected(c.fault());
      if (c.key().equals("ok")) {
        assertThat(injected).as("faults acted out").isEqualTo(REQUESTS / 2);
        assertThat(errors).as("legal streams succeed").isEmpty();
        assertThat(traces).allSatisfy(t -> assertThat(t.finishReason()).isNotNull());
      } else {
        assertThat(injected).as("faults acted out").isEqualTo(REQUESTS / 2);
        assertThat(errors).as("client's failures by key").containsExactly(Map.entry(c.key(), injected));
        List<String> messages = traces.stream().filter(t -> !t.succeeded()).map(t -> t.failure().message()).toList();
        assertThat(messages).allSatisfy(m -> assertThat(m).contains(c.message()).doesNotContain("chatcmpl-"));
      }
    }
  }

  @Test
  void aLongLineIsReadWholeButKeptAsAnExcerpt() {
    EmbeddedOptions options = EmbeddedOptions.builder(PerformanceProfile.INSTANT).faults("longline:every1").build();
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(options);
        OpenAiClient client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(20), IDLE)) {
      RequestTrace t = level(client, true, 1, 1).get(0);
      assertThat(t.succeeded()).as("%s", t).isTrue();
      assertThat(t.contentChars()).as("all 5 MiB read").isGreaterThan(5L * 1024 * 1024);
      assertThat(t.content()).hasSizeLessThanOrEqualTo(TextCapture.EXCERPT.maxChars());
      assertThat(t.textComplete()).isFalse();
    }
  }

  @Test
  void aRefusedConnectionNeverLeftAndIsAConnectionError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (OpenAiClient client = new OpenAiClient(URI.create("http://127.0.0.1:" + port), null, Duration.ofSeconds(5), IDLE)) {
      List<RequestTrace> traces = level(client, true, 2, 4);
      assertThat(errorsByKey(traces)).containsExactly(Map.entry("CONNECTION", 4L));
      assertThat(traces.get(0).failure().message()).startsWith("could not connect to 127.0.0.1:" + port);
    }
  }

  @Test
  void aWrongKeyIsCountedAs401WithTheServersMessageAndNeverTheKey() {
    EmbeddedOptions options = EmbeddedOptions.builder(PerformanceProfile.INSTANT).apiKey("sk-right-key-0001").build();
    try (EmbeddedLlmServer server = EmbeddedLlmServer.start(options);
        OpenAiClient client = new OpenAiClient(server.baseUrl(), "sk-wrong-key-0002", Duration.ofSeconds(5), IDLE)) {
      List<RequestTrace> traces = level(client, true, 2, 4);
      assertThat(errorsByKey(traces)).containsExactly(Map.entry("HTTP 401", 4L));
      assertThat(server.postsReceived("/v1/chat/completions")).isEqualTo(4);
      assertThat(traces).allSatisfy(t -> assertThat(t.failure().message()).doesNotContain("sk-wrong-key-0002"));
    }
  }

  /** Sends {@code n} requests at {@code concurrency} through the load runner, as a level does. */
  static List<RequestTrace> level(OpenAiClient client, boolean stream, int concurrency, int n) {
    CompletionRequest request = CompletionRequest.of("Tell me about faults.").withMaxTokens(8).withStream(stream);
    LoadRunner runner = new LoadRunner((i, due) -> client.sendAsync(ApiStyle.CHAT, "m", request, due, TextCapture.EXCERPT),
        client::cancelAll, Duration.ofSeconds(30), LoadRunner.Observer.NONE);
    return runner.run(new LoadShape.ClosedLoop(concurrency), Budget.requests(n), 1).traces();
  }

  static Map<String, Long> errorsByKey(List<RequestTrace> traces) {
    return traces.stream().filter(t -> !t.succeeded())
        .collect(Collectors.groupingBy(t -> t.failure().key(), LinkedHashMap::new, Collectors.counting()));
  }
}
