package dev.llmbench.engine;

import static dev.llmbench.engine.Wire.CHAT;
import static dev.llmbench.engine.Wire.chatBody;
import static dev.llmbench.engine.Wire.get;
import static dev.llmbench.engine.Wire.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Server-wide modes and the API key (the standalone command's flags: llmbench-cli's EmbeddedServerMainTests). */
class ServerModeTests {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String KEY = "sk-test-0123456789";

  EmbeddedLlmServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  int start(EmbeddedOptions.Builder options) {
    server = EmbeddedLlmServer.start(options.build());
    return server.baseUrl().getPort();
  }

  @Test
  void neverReadyKeepsLoading() throws IOException {
    int port = start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).mode(ServerMode.NEVER_READY));
    try (Wire wire = new Wire(port)) {
      Wire.Response health = wire.exchange(get("/health"));
      assertThat(health.status()).isEqualTo(503);
      assertThat(JSON.readTree(health.body()).at("/error/message").asText()).isEqualTo("Loading model");
      assertThat(wire.exchange(post(CHAT, chatBody("x", 2, true))).status()).isEqualTo(503);
      assertThat(wire.exchange(get("/v1/models")).status()).isEqualTo(200); // as during any startup delay
    }
    assertThat(server.postsReceived(CHAT)).isEqualTo(1);
    assertThat(server.generationRequests()).as("not numbered for faults").isZero();
  }

  @Test
  void startupDelayEndsInReadiness() {
    int port = start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).startupDelay(Duration.ofMillis(300)));
    try (Wire wire = new Wire(port)) {
      assertThat(wire.exchange(get("/health")).status()).isEqualTo(503);
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
          .until(() -> wire.exchange(get("/health")).status() == 200);
    }
  }

  @Test
  void notFoundAnswers404Everywhere() throws IOException {
    int port = start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).mode(ServerMode.NOT_FOUND));
    try (Wire wire = new Wire(port)) {
      for (String path : new String[] {"/health", "/v1/models", "/metrics", "/version"}) {
        Wire.Response r = wire.exchange(get(path));
        assertThat(r.status()).as(path).isEqualTo(404);
        assertThat(JSON.readTree(r.body()).path("detail").asText()).isEqualTo("Not Found");
      }
      assertThat(wire.exchange(post(CHAT, chatBody("x", 2, false))).status()).isEqualTo(404);
    }
    assertThat(server.postsReceived(CHAT)).isEqualTo(1);
  }

  @Test
  void apiKeyGuardsV1RoutesOnlyAsVllmDoes() throws IOException {
    int port = start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).apiKey(KEY));
    try (Wire wire = new Wire(port)) {
      assertThat(wire.exchange(get("/health")).status()).isEqualTo(200);
      assertThat(wire.exchange(get("/metrics")).status()).isEqualTo(200);
      assertThat(wire.exchange(get("/version")).status()).isEqualTo(200);
      Wire.Response missing = wire.exchange(get("/v1/models"));
      assertThat(missing.status()).isEqualTo(401);
      JsonNode error = JSON.readTree(missing.body()).path("error");
      assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
      assertThat(error.path("code").asText()).isEqualTo("invalid_api_key");
      Wire.Response wrong = wire.exchange(post(CHAT, chatBody("x", 2, false), "Authorization: Bearer sk-wrong"));
      assertThat(wrong.status()).isEqualTo(401);
      assertThat(wrong.text()).doesNotContain(KEY).doesNotContain("sk-wrong");
      assertThat(wire.exchange(post(CHAT, chatBody("x", 2, false), "Authorization: " + KEY)).status())
          .as("no scheme").isEqualTo(401);
      assertThat(wire.exchange(get("/v1/nothing")).status()).as("unknown /v1 route").isEqualTo(401);
      assertThat(wire.exchange(get("/v1/models", "Authorization: Bearer " + KEY)).status()).isEqualTo(200);
      assertThat(wire.exchange(post(CHAT, chatBody("x", 2, false), "Authorization: bearer " + KEY)).status())
          .as("the scheme is case-insensitive").isEqualTo(200);
    }
    assertThat(server.postsReceived(CHAT)).isEqualTo(3);
    assertThat(server.generationRequests()).as("only the authorised one is numbered").isEqualTo(1);
    assertThat(server.options().toString()).doesNotContain(KEY).contains("apiKey=set");
  }

  @Test
  void modesParseByNameAndNameTheChoicesOtherwise() {
    assertThat(ServerMode.parse(" Never-Ready ")).isEqualTo(ServerMode.NEVER_READY);
    assertThatThrownBy(() -> ServerMode.parse("api-key"))
        .hasMessageContaining("normal, never-ready, not-found").hasMessageContaining("own option");
  }

  @Test
  void idleConnectionsCloseAfterTheKeepAliveLimit() {
    int port = start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).keepAlive(Duration.ofMillis(300)));
    try (Wire wire = new Wire(port, Duration.ofSeconds(5))) {
      assertThat(wire.exchange(get("/health")).status()).isEqualTo(200);
      long start = System.nanoTime();
      assertThat(wire.readToEnd()).isEqualTo(Wire.End.EOF);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(200), Duration.ofSeconds(4));
    }
  }
}
