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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The embedded engine's own HTTP/1.1 server, seen from raw sockets and from OkHttp. */
class LoopbackHttpServerTests {

  static final ObjectMapper JSON = new ObjectMapper();

  EmbeddedLlmServer server = EmbeddedLlmServer.start(PerformanceProfile.INSTANT, 0, Duration.ZERO);

  @AfterEach
  void stop() {
    server.close();
  }

  int port() {
    return server.baseUrl().getPort();
  }

  @Test
  void keptAliveConnectionCarriesEveryKindOfRequest() {
    try (Wire wire = new Wire(port())) {
      assertThat(wire.exchange(get("/health")).status()).isEqualTo(200);
      Wire.Response whole = wire.exchange(post(CHAT, chatBody("hello", 5, false)));
      assertThat(whole.status()).isEqualTo(200);
      assertThat(whole.header("content-length")).isEqualTo(String.valueOf(whole.body().length));
      Wire.Response streamed = wire.exchange(post(CHAT, chatBody("hello", 5, true)));
      assertThat(streamed.end()).isEqualTo(Wire.End.COMPLETE);
      assertThat(streamed.events()).last().isEqualTo("[DONE]");
      assertThat(wire.exchange(get("/metrics")).text()).contains("vllm:generation_tokens_total");
    }
    assertThat(server.acceptedConnections()).isEqualTo(1);
  }

  @Test
  void okHttpReusesOneConnection() throws IOException {
    OkHttpClient http = new OkHttpClient();
    for (int i = 0; i < 5; i++) {
      Request request = new Request.Builder().url(server.baseUrl() + CHAT)
          .post(RequestBody.create(chatBody("hi " + i, 3, i % 2 == 0), MediaType.get("application/json"))).build();
      try (Response response = http.newCall(request).execute()) {
        assertThat(response.code()).isEqualTo(200);
        assertThat(response.body().string()).contains("\"completion_tokens\":3");
      }
    }
    assertThat(server.acceptedConnections()).isEqualTo(1);
    http.connectionPool().evictAll();
  }

  @Test
  void chunkedRequestBodyIsReadWhole() throws IOException {
    String body = chatBody("count the tokens of this prompt", 4, false);
    int promptTokens;
    try (Wire wire = new Wire(port())) {
      promptTokens = JSON.readTree(wire.exchange(post(CHAT, body)).body()).at("/usage/prompt_tokens").asInt();
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      int third = b.length / 3;
      String chunked = "POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
          + Integer.toHexString(third) + ";ext=1\r\n" + new String(b, 0, third, StandardCharsets.UTF_8) + "\r\n"
          + Integer.toHexString(b.length - third) + "\r\n" + new String(b, third, b.length - third, StandardCharsets.UTF_8)
          + "\r\n0\r\nX-Trailer: t\r\n\r\n";
      Wire.Response response = wire.exchange(chunked);
      assertThat(response.status()).as(response.text()).isEqualTo(200);
      assertThat(JSON.readTree(response.body()).at("/usage/prompt_tokens").asInt()).isEqualTo(promptTokens).isPositive();
      assertThat(wire.exchange(get("/health")).status()).as("the connection is still usable").isEqualTo(200);
    }
  }

  @Test
  void expectContinueIsAnsweredBeforeTheBody() {
    String body = chatBody("hello", 2, false);
    try (Wire wire = new Wire(port())) {
      wire.send("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: "
          + body.length() + "\r\n\r\n");
      assertThat(wire.read().status()).isEqualTo(100);
      assertThat(wire.send(body).read().status()).isEqualTo(200);
    }
  }

  @Test
  void eachEventIsOneChunk() {
    try (Wire wire = new Wire(port())) {
      Wire.Response response = wire.exchange(post(COMPLETIONS,
          "{\"prompt\":\"hello\",\"max_tokens\":6,\"ignore_eos\":true,\"stream\":true}"));
      assertThat(response.header("content-type")).isEqualTo("text/event-stream");
      assertThat(response.chunks()).hasSize(6 + 1 + 1); // tokens, the finish chunk, [DONE]
      for (byte[] chunk : response.chunks()) {
        assertThat(new String(chunk, StandardCharsets.UTF_8)).startsWith("data: ").endsWith("\n\n")
            .containsOnlyOnce("data: ");
      }
    }
  }

  @Test
  void connectionCloseIsHonoured() {
    try (Wire wire = new Wire(port())) {
      Wire.Response response = wire.exchange(post(CHAT, chatBody("hello", 2, true), "Connection: close"));
      assertThat(response.end()).isEqualTo(Wire.End.COMPLETE);
      assertThat(response.header("connection")).isEqualTo("close");
      assertThat(wire.readToEnd()).isEqualTo(Wire.End.EOF);
    }
  }

  @Test
  void headGetsTheHeadersOnly() {
    try (Wire wire = new Wire(port(), Duration.ofMillis(500))) {
      String raw = wire.send("HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n" + get("/version")).readRaw();
      assertThat(raw).startsWith("HTTP/1.1 200").doesNotContain("\"status\"").contains("llmbench-embedded/instant");
      assertThat(raw.split("HTTP/1.1 200", -1)).hasSize(3);
    }
  }

  @Test
  void http10ClientGetsTheStreamUntilTheConnectionCloses() {
    String body = chatBody("hello", 3, true);
    try (Wire wire = new Wire(port())) {
      Wire.Response response = wire.exchange("POST " + CHAT + " HTTP/1.0\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
      assertThat(response.header("transfer-encoding")).isNull();
      assertThat(response.events()).last().isEqualTo("[DONE]");
    }
  }

  @Test
  void malformedRequestGets400AndTheConnectionCloses() {
    try (Wire wire = new Wire(port())) {
      Wire.Response response = wire.exchange("NONSENSE\r\n\r\n");
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.header("connection")).isEqualTo("close");
      assertThat(wire.readToEnd()).isEqualTo(Wire.End.EOF);
    }
  }

  @Test
  void routesAnswerAsBefore() throws IOException {
    try (Wire wire = new Wire(port())) {
      Wire.Response unknown = wire.exchange(get("/v2/nothing"));
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(JSON.readTree(unknown.body()).at("/error/message").asText()).isEqualTo("no route for /v2/nothing");
      assertThat(wire.exchange(get(CHAT)).status()).isEqualTo(405);
      assertThat(wire.exchange(post(CHAT, "{not json")).status()).isEqualTo(400);
      assertThat(wire.exchange(post(CHAT, "{\"messages\":[]}")).status()).isEqualTo(400);
      assertThat(wire.exchange(post(COMPLETIONS, "{\"prompt\":\"\"}")).status()).isEqualTo(400);
      assertThat(wire.exchange(post(CHAT, chatBody("x", 0, false))).status()).isEqualTo(400);
      JsonNode models = JSON.readTree(wire.exchange(get("/v1/models")).body());
      assertThat(models.at("/data/0/id").asText()).isEqualTo("instant");
      assertThat(wire.exchange(get("/version?x=1")).text()).contains("llmbench-embedded/instant");
    }
  }

  /** A few hundred streams in flight together, each on its own connection, all answered in full. */
  @Test
  void holdsHundredsOfConcurrentStreams() {
    server.close();
    server = EmbeddedLlmServer.start(PerformanceProfile.FIXED_20MS, 0, Duration.ZERO);
    int streams = 300;
    List<Wire> wires = new ArrayList<>();
    try {
      for (int i = 0; i < streams; i++) wires.add(new Wire(port(), Duration.ofSeconds(60)));
      // 60 tokens at 20 ms: 1.2 s each, so every stream is admitted long before the first one ends.
      for (Wire w : wires) w.send(post(CHAT, chatBody("stream", 60, true)));
      await().atMost(Duration.ofSeconds(30)).until(() -> server.running() == streams);
      for (Wire w : wires) {
        Wire.Response response = w.read();
        assertThat(response.end()).isEqualTo(Wire.End.COMPLETE);
        assertThat(response.events()).hasSize(1 + 60 + 1 + 1 + 1).last().isEqualTo("[DONE]");
      }
      assertThat(server.acceptedConnections()).isEqualTo(streams);
    } finally {
      wires.forEach(Wire::close);
    }
  }

  @Test
  void closingTheServerEndsOpenStreams() {
    server.close();
    server = EmbeddedLlmServer.start(PerformanceProfile.FIXED_20MS, 0, Duration.ZERO);
    try (Wire wire = new Wire(port())) {
      wire.send(post(CHAT, chatBody("long", 10_000, true)));
      await().atMost(Duration.ofSeconds(10)).until(() -> server.running() == 1);
      long start = System.nanoTime();
      server.close();
      assertThat(wire.read().end()).isIn(Wire.End.EOF, Wire.End.RESET);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
      assertThat(server.openConnections()).isZero();
    }
  }
}
