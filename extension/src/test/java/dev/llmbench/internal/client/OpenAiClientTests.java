package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.Usage;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bad servers must give a counted error, never a hang or an exception out of the client. */
class OpenAiClientTests {

  private MockWebServer server;
  /**
   * Timeouts no test but the stalled one is about: roomy, as the first request of a cold JVM on a loaded 2-core
   * runner (class loading, the first event loop) can take seconds, which 5 s / 2 s turned into a TIMEOUT.
   */
  private OpenAiClient client;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start();
    client = client(Duration.ofMinutes(2), Duration.ofMinutes(1));
  }

  private OpenAiClient client(Duration requestTimeout, Duration idleTimeout) {
    return new OpenAiClient(URI.create(server.url("/v1").toString()), "sk-secret", requestTimeout, idleTimeout);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
  }

  private static MockResponse sse(String body) {
    return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(body).build();
  }

  private RequestTrace send() {
    return send(client);
  }

  private static RequestTrace send(OpenAiClient client) {
    return client.send(ApiStyle.CHAT, "m", CompletionRequest.of("hi").withMaxTokens(3));
  }

  @Test
  void readsContentReasoningUsageAndSendsTheKeyAsBearer() throws Exception {
    server.enqueue(sse("""
        data: {"choices":[{"delta":{"role":"assistant","content":""}}]}

        data: {"choices":[{"delta":{"reasoning":"hmm"}}]}

        data: {"choices":[{"delta":{"content":"Paris"},"finish_reason":"stop"}]}

        data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"completion_tokens_details":{"reasoning_tokens":1}}}

        data: [DONE]

        """));
    RequestTrace t = send();
    assertThat(t.succeeded()).isTrue();
    assertThat(t.content()).isEqualTo("Paris");
    assertThat(t.reasoning()).isEqualTo("hmm");
    assertThat(t.usage()).isEqualTo(new Usage(5, 2, 1));
    assertThat(t.tokenChunks()).isEqualTo(2);
    RecordedRequest request = server.takeRequest();
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer sk-secret");
    assertThat(request.getBody().utf8()).contains("\"include_usage\":true").contains("\"max_tokens\":3");
    assertThat(client.toString()).doesNotContain("sk-secret");
  }

  @Test
  void httpErrorCarriesStatusAndBodyExcerpt() {
    server.enqueue(new MockResponse.Builder().code(503).body("{\"error\":{\"message\":\"Loading model\"}}").build());
    RequestTrace t = send();
    assertThat(t.failure().kind()).isEqualTo(ErrorKind.HTTP_STATUS);
    assertThat(t.failure().key()).isEqualTo("HTTP 503");
    assertThat(t.failure().message()).contains("Loading model");
  }

  @Test
  void malformedEventIsACorruptStreamThatKeepsWhatCameBefore() {
    server.enqueue(sse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {not json\n\n"));
    RequestTrace t = send();
    assertThat(t.failure().kind()).isEqualTo(ErrorKind.CORRUPT_STREAM);
    assertThat(t.failure().message()).contains("not JSON").contains("{not json");
    assertThat(t.content()).isEqualTo("a");
  }

  @Test
  void streamThatStopsWithoutFinishOrDoneIsCut() {
    server.enqueue(sse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"));
    assertThat(send().failure().kind()).isEqualTo(ErrorKind.CUT_STREAM);
  }

  @Test
  void errorSentMidStreamIsReported() {
    server.enqueue(sse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"error\":{\"message\":\"out of memory\"}}\n\n"));
    RequestTrace t = send();
    assertThat(t.failure().kind()).isEqualTo(ErrorKind.STREAM_ERROR);
    assertThat(t.failure().message()).contains("out of memory");
  }

  @Test
  void stalledStreamTimesOutInsteadOfHanging() {
    Duration serverDelay = Duration.ofSeconds(60);
    server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
        .body("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n")
        .headersDelay(serverDelay.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).build());
    try (OpenAiClient impatient = client(Duration.ofSeconds(5), Duration.ofSeconds(2))) {
      long start = System.nanoTime();
      RequestTrace t = send(impatient);
      // The 2 s idle limit ends it, not the server's answer: far longer than a busy runner can add to 2 s.
      assertThat(t.failure().kind()).isEqualTo(ErrorKind.TIMEOUT);
      assertThat(t.failure().message()).contains("no byte for longer than").contains("= 2s");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(serverDelay);
    }
  }

  @Test
  void anAssistantsToolCallsAndTheToolMessagesAnsweringThemAreWrittenAsOpenAiTakesThem() {
    CompletionRequest r = CompletionRequest.ofMessages(List.of(ChatMessage.user("Weather?"),
        ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("call_9", "get_weather", "{\"city\":\"Paris\"}"))),
        ChatMessage.tool("call_9", "18 C"))).withStream(false);
    assertThat(new String(client.body(ApiStyle.CHAT, "m", r), StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"m\","
        + "\"messages\":[{\"role\":\"user\",\"content\":\"Weather?\"},{\"role\":\"assistant\",\"content\":\"\","
        + "\"tool_calls\":[{\"id\":\"call_9\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
        + "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},{\"role\":\"tool\",\"content\":\"18 C\","
        + "\"tool_call_id\":\"call_9\"}],\"stream\":false}");
  }

  @Test
  void nonStreamingServerAnswerIsReadWhole() {
    server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
        .body("{\"choices\":[{\"message\":{\"content\":\"ok\"},\"finish_reason\":\"length\"}],\"usage\":{\"completion_tokens\":1}}").build());
    RequestTrace t = send();
    assertThat(t.succeeded()).isTrue();
    assertThat(t.streamed()).isFalse();
    assertThat(t.content()).isEqualTo("ok");
    assertThat(t.finishReason()).isEqualTo("length");
  }
}
