package dev.llmbench.engine;

import static dev.llmbench.engine.Wire.CHAT;
import static dev.llmbench.engine.Wire.COMPLETIONS;
import static dev.llmbench.engine.Wire.chatBody;
import static dev.llmbench.engine.Wire.get;
import static dev.llmbench.engine.Wire.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each fault kind as bytes on the wire, and the server's counts of what it received and injected. */
class FaultInjectionTests {

  static final ObjectMapper JSON = new ObjectMapper();
  /** 8 tokens: role chunk, 8 token chunks, finish chunk, usage chunk, [DONE]. */
  static final String STREAM = post(CHAT, chatBody("hello", 8, true));

  EmbeddedLlmServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  EmbeddedLlmServer start(String faults) {
    return start(faults, 0);
  }

  EmbeddedLlmServer start(String faults, long seed) {
    if (server != null) server.close();
    server = EmbeddedLlmServer.start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).faults(faults).faultSeed(seed).build());
    return server;
  }

  int port() {
    return server.baseUrl().getPort();
  }

  /** Sends one streamed chat request on a new connection and reads what comes back. */
  Wire.Response streamOnce(Duration readTimeout) {
    try (Wire wire = new Wire(port(), readTimeout)) {
      return wire.exchange(STREAM);
    }
  }

  static JsonNode json(String s) {
    try {
      return JSON.readTree(s);
    } catch (IOException e) {
      return null;
    }
  }

  void assertCounted(FaultKind kind, long times) {
    assertThat(server.faultsInjected(kind)).as("%s injected", kind).isEqualTo(times);
    assertThat(server.faultsInjected().values().stream().mapToLong(Long::longValue).sum()).as("faults of any kind")
        .isEqualTo(times);
  }

  @Test
  void http500IsAJsonErrorOnAConnectionThatStaysUsable() {
    start("http500:every1");
    try (Wire wire = new Wire(port())) {
      for (int i = 0; i < 2; i++) {
        Wire.Response r = wire.exchange(STREAM);
        assertThat(r.status()).isEqualTo(500);
        assertThat(json(r.text()).at("/error/type").asText()).isEqualTo("internal_server_error");
      }
    }
    assertCounted(FaultKind.HTTP500, 2);
    assertThat(server.acceptedConnections()).isEqualTo(1);
  }

  @Test
  void http429CarriesRetryAfter() {
    start("http429:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(429);
    assertThat(r.header("retry-after")).isEqualTo("1");
    assertThat(json(r.text()).at("/error/type").asText()).isEqualTo("rate_limit_error");
    assertCounted(FaultKind.HTTP429, 1);
  }

  @Test
  void http503IsAJsonError() {
    start("http503:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(503);
    assertThat(r.header("content-type")).isEqualTo("application/json");
    assertThat(json(r.text()).at("/error/message").asText()).isNotBlank();
    assertCounted(FaultKind.HTTP503, 1);
  }

  @Test
  void htmlIsA502PageFromAProxy() {
    start("html:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(502);
    assertThat(r.header("content-type")).isEqualTo("text/html");
    assertThat(r.text()).startsWith("<html>").contains("502 Bad Gateway");
    assertCounted(FaultKind.HTML, 1);
  }

  @Test
  void dropClosesAfterReadingTheRequestBeforeAnyStatusLine() {
    start("drop:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(-1);
    assertThat(r.end()).isEqualTo(Wire.End.EOF);
    assertThat(r.body()).isEmpty();
    assertThat(server.postsReceived(CHAT)).isEqualTo(1);
    assertCounted(FaultKind.DROP, 1);
  }

  @Test
  void silentReadsTheRequestAndNeverAnswers() {
    start("silent:every1");
    Wire.Response r = streamOnce(Duration.ofMillis(1500));
    assertThat(r.status()).isEqualTo(-1);
    assertThat(r.end()).isEqualTo(Wire.End.TIMEOUT);
    assertCounted(FaultKind.SILENT, 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 0); // freed once the client leaves
  }

  @Test
  void resetSendsThreeEventsThenAnRst() {
    start("reset:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.end()).isEqualTo(Wire.End.RESET);
    assertThat(r.events()).hasSize(EventStream.FAULT_AFTER_EVENTS);
    assertThat(r.text()).doesNotContain("finish_reason\":\"").doesNotContain("[DONE]");
    assertCounted(FaultKind.RESET, 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> server.running() == 0); // the batch slot is freed
  }

  @Test
  void cutClosesCleanlyMidStreamWithoutTheLastChunk() {
    start("cut:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.end()).as("FIN without the zero-length chunk").isEqualTo(Wire.End.EOF);
    assertThat(r.events()).hasSize(EventStream.FAULT_AFTER_EVENTS);
    assertThat(r.text()).doesNotContain("finish_reason\":\"").doesNotContain("[DONE]");
    assertCounted(FaultKind.CUT, 1);
  }

  @Test
  void stallGoesSilentMidStreamWithTheConnectionOpen() {
    start("stall:every1");
    Wire.Response r = streamOnce(Duration.ofMillis(1500));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.end()).isEqualTo(Wire.End.TIMEOUT);
    assertThat(r.events()).hasSize(EventStream.FAULT_AFTER_EVENTS);
    assertCounted(FaultKind.STALL, 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> server.running() == 0 && server.openConnections() == 0);
  }

  @Test
  void badJsonAddsOneEventThatDoesNotParse() {
    start("badjson:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.end()).isEqualTo(Wire.End.COMPLETE);
    List<String> events = r.events();
    assertThat(events).last().isEqualTo("[DONE]");
    List<Integer> unparsable = new ArrayList<>();
    for (int i = 0; i < events.size() - 1; i++) if (json(events.get(i)) == null) unparsable.add(i);
    assertThat(unparsable).containsExactly(EventStream.FAULT_AFTER_EVENTS);
    assertThat(events).hasSize(1 + 8 + 1 + 1 + 1 + 1); // one more than a clean stream
    assertCounted(FaultKind.BADJSON, 1);
  }

  @Test
  void badUtf8PutsInvalidBytesInsideOneContentString() {
    start("badutf8:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.end()).isEqualTo(Wire.End.COMPLETE);
    List<Integer> invalid = new ArrayList<>();
    for (int i = 0; i < r.chunks().size(); i++) {
      try {
        StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(r.chunks().get(i)));
      } catch (CharacterCodingException e) {
        invalid.add(i);
        String lenient = new String(r.chunks().get(i), StandardCharsets.UTF_8);
        assertThat(json(lenient.substring(6).strip()).at("/choices/0/delta/content").asText()).endsWith("\uFFFD");
      }
    }
    assertThat(invalid).containsExactly(EventStream.FAULT_AFTER_EVENTS);
    assertThat(r.events()).hasSize(1 + 8 + 1 + 1 + 1).last().isEqualTo("[DONE]");
    assertCounted(FaultKind.BADUTF8, 1);
  }

  @Test
  void longLineIsOneFiveMebibyteDataLine() {
    start("longline:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(10));
    assertThat(r.end()).isEqualTo(Wire.End.COMPLETE);
    List<String> events = r.events();
    assertThat(events.stream().filter(e -> e.length() > EventStream.LONG_LINE_BYTES)).hasSize(1);
    assertThat(events.get(EventStream.FAULT_AFTER_EVENTS).length()).isGreaterThan(EventStream.LONG_LINE_BYTES);
    assertThat(json(events.get(EventStream.FAULT_AFTER_EVENTS))).as("still valid JSON").isNotNull();
    assertThat(events).last().isEqualTo("[DONE]");
    assertCounted(FaultKind.LONGLINE, 1);
  }

  @Test
  void crlfUsesCrlfLineEndingsAndCommentLinesThroughout() {
    start("crlf:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.end()).isEqualTo(Wire.End.COMPLETE);
    String text = r.text();
    assertThat(text.replace("\r\n", "")).doesNotContain("\n").doesNotContain("\r");
    assertThat(text).startsWith(": ").contains("\r\n: ");
    assertThat(r.events()).hasSize(1 + 8 + 1 + 1 + 1).last().isEqualTo("[DONE]");
    assertThat(r.events().subList(0, 11)).allSatisfy(e -> assertThat(json(e)).isNotNull());
    assertCounted(FaultKind.CRLF, 1);
  }

  @Test
  void jsonTypeSendsAValidStreamUnderTheWrongContentType() {
    start("jsontype:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.header("content-type")).isEqualTo("application/json");
    assertThat(r.events()).hasSize(1 + 8 + 1 + 1 + 1).last().isEqualTo("[DONE]");
    assertCounted(FaultKind.JSONTYPE, 1);
  }

  @Test
  void noDoneEndsProperlyWithFinishReasonAndUsageButNoDone() {
    start("nodone:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.end()).isEqualTo(Wire.End.COMPLETE);
    List<String> events = r.events();
    assertThat(events).hasSize(1 + 8 + 1 + 1).doesNotContain("[DONE]");
    assertThat(json(events.get(9)).at("/choices/0/finish_reason").asText()).isEqualTo("length");
    assertThat(json(events.get(10)).at("/usage/completion_tokens").asInt()).isEqualTo(8);
    assertCounted(FaultKind.NODONE, 1);
  }

  @Test
  void midStreamErrorIsAnErrorEventThenDone() {
    start("midstreamerror:every1");
    Wire.Response r = streamOnce(Duration.ofSeconds(5));
    assertThat(r.end()).isEqualTo(Wire.End.COMPLETE);
    List<String> events = r.events();
    assertThat(events).hasSize(EventStream.FAULT_AFTER_EVENTS + 2).last().isEqualTo("[DONE]");
    JsonNode error = json(events.get(EventStream.FAULT_AFTER_EVENTS));
    assertThat(error.at("/error/code").asInt()).isEqualTo(500);
    assertThat(error.at("/error/message").asText()).isNotBlank();
    assertThat(r.text()).doesNotContain("finish_reason\":\"");
    assertCounted(FaultKind.MIDSTREAMERROR, 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> server.running() == 0);
  }

  @Test
  void aShortStreamMeetsItsFaultBeforeTheFinishEvent() {
    start("cut:every1");
    try (Wire wire = new Wire(port())) {
      Wire.Response r = wire.exchange(post(COMPLETIONS, "{\"prompt\":\"hi\",\"max_tokens\":1,\"stream\":true}"));
      assertThat(r.events()).hasSize(1); // the one token; no finish chunk
      assertThat(r.end()).isEqualTo(Wire.End.EOF);
    }
    start("badutf8:every1");
    try (Wire wire = new Wire(port())) {
      Wire.Response r = wire.exchange(post(COMPLETIONS, "{\"prompt\":\"hi\",\"max_tokens\":1,\"stream\":true}"));
      assertThat(r.events()).hasSize(1 + 1 + 1 + 1); // token, corrupted extra, finish, [DONE]
      assertThat(json(r.events().get(2)).at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }
    assertCounted(FaultKind.BADUTF8, 1);
  }

  @Test
  void streamFaultsLeaveNonStreamingRequestsAloneAndUncounted() {
    start("reset:every1");
    try (Wire wire = new Wire(port())) {
      Wire.Response r = wire.exchange(post(CHAT, chatBody("hello", 4, false)));
      assertThat(r.status()).isEqualTo(200);
      assertThat(json(r.text()).at("/usage/completion_tokens").asInt()).isEqualTo(4);
    }
    assertCounted(FaultKind.RESET, 0);
    assertThat(server.generationRequests()).isEqualTo(1);
  }

  @Test
  void periodicFaultsAreCountedExactlyOnBothSides() {
    start("drop:every5,http500:every3");
    int ok = 0;
    int errors = 0;
    int drops = 0;
    for (int i = 0; i < 30; i++) {
      Wire.Response r = streamOnce(Duration.ofSeconds(5));
      if (r.status() == 200 && r.events().contains("[DONE]")) ok++;
      else if (r.status() == 500) errors++;
      else if (r.status() == -1 && r.end() == Wire.End.EOF) drops++;
    }
    assertThat(drops).isEqualTo(6);
    assertThat(errors).isEqualTo(8);
    assertThat(ok).isEqualTo(16);
    assertThat(server.faultsInjected(FaultKind.DROP)).isEqualTo(drops);
    assertThat(server.faultsInjected(FaultKind.HTTP500)).isEqualTo(errors);
    assertThat(server.postsReceived(CHAT)).isEqualTo(30);
    assertThat(server.generationRequests()).isEqualTo(30);
    try (Wire wire = new Wire(port())) {
      String metrics = wire.exchange(get("/metrics")).text();
      assertThat(metrics).contains("llmbench:faults_injected_total{kind=\"drop\"} 6\n")
          .contains("llmbench:faults_injected_total{kind=\"http500\"} 8\n")
          .contains("llmbench:http_requests_total{method=\"POST\",route=\"/v1/chat/completions\"} 30\n")
          .contains("llmbench:http_requests_total{method=\"POST\",route=\"/v1/completions\"} 0\n")
          .contains("llmbench:generation_requests_total{model_name=\"instant\"} 30\n");
    }
  }

  @Test
  void percentageFaultsRepeatRequestForRequestWithTheSameSeed() {
    List<Integer> first = statuses(start("http500:30%,http429:20%", 11), 40);
    List<Integer> again = statuses(start("http500:30%,http429:20%", 11), 40);
    List<Integer> otherSeed = statuses(start("http500:30%,http429:20%", 12), 40);
    assertThat(again).isEqualTo(first);
    assertThat(otherSeed).isNotEqualTo(first);
    FaultPlan plan = FaultPlan.parse("http500:30%,http429:20%");
    for (int n = 1; n <= 40; n++) {
      Optional<FaultKind> expected = plan.faultFor(n, 11);
      int status = expected.map(k -> k == FaultKind.HTTP500 ? 500 : 429).orElse(200);
      assertThat(first.get(n - 1)).as("request %d", n).isEqualTo(status);
    }
    assertThat(first).contains(200, 500, 429);
  }

  private List<Integer> statuses(EmbeddedLlmServer s, int requests) {
    List<Integer> statuses = new ArrayList<>();
    try (Wire wire = new Wire(s.baseUrl().getPort())) {
      for (int i = 0; i < requests; i++) statuses.add(wire.exchange(post(CHAT, chatBody("x", 2, false))).status());
    }
    return statuses;
  }

  /**
   * A client that resends a dropped POST (OkHttp's default retryOnConnectionFailure) is caught by the server's
   * count: 3 calls made, 4 POSTs received.
   */
  @Test
  void theServerCountsAClientsSilentResend() throws IOException {
    start("drop:every2");
    OkHttpClient http = new OkHttpClient();
    int ok = 0;
    for (int i = 0; i < 3; i++) {
      Request request = new Request.Builder().url(server.baseUrl() + CHAT)
          .post(RequestBody.create(chatBody("x", 2, false), MediaType.get("application/json"))).build();
      try (Response response = http.newCall(request).execute()) {
        if (response.code() == 200) ok++;
      } catch (IOException e) {
        // a failed call is not the point here
      }
    }
    http.connectionPool().evictAll();
    assertThat(server.postsReceived(CHAT)).as("POSTs the server received for 3 calls").isGreaterThan(3);
    assertThat(server.faultsInjected(FaultKind.DROP)).isEqualTo(server.postsReceived(CHAT) / 2);
    assertThat(ok).isPositive();
  }
}
