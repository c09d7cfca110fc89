package dev.llmbench.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.workload.ReplyCheck;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The embedded engine's tool calls, JSON answers and embeddings, read through the client as any server's. */
class StructuredRepliesTests {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOOLS = "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":{\"type\":"
      + "\"object\",\"properties\":{\"city\":{\"type\":\"string\"},\"days\":{\"type\":\"integer\",\"minimum\":3}},"
      + "\"required\":[\"city\"]}}},{\"type\":\"function\",\"function\":{\"name\":\"get_time\",\"parameters\":{\"type\":\"object\"}}}]";

  private EmbeddedLlmServer server;
  private OpenAiClient client;

  private OpenAiClient start(EmbeddedOptions options) {
    server = EmbeddedLlmServer.start(options);
    client = new OpenAiClient(server.baseUrl(), null, Duration.ofSeconds(30), Duration.ofSeconds(30));
    return client;
  }

  @AfterEach
  void stop() {
    if (client != null) client.close();
    if (server != null) server.close();
  }

  @Test
  void aStreamedToolCallCarriesArgumentsThatMatchTheToolsSchemaAndEndsWithToolCalls() {
    start(EmbeddedOptions.of(PerformanceProfile.INSTANT));
    CompletionRequest r = CompletionRequest.of("Weather in Paris?").withMaxTokens(64).withBodyField("tools", TOOLS);
    RequestTrace t = client.send(ApiStyle.CHAT, null, r);
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.finishReason()).isEqualTo("tool_calls");
    assertThat(t.toolCalls()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("get_weather"));
    assertThat(t.tokenChunks()).as("the arguments come in pieces").isGreaterThan(3);
    assertThat(ReplyCheck.of(r.bodyFields()).judge(t).replyUnparsed()).isFalse();
    // A named choice calls that tool; a non-streamed answer carries the call whole.
    CompletionRequest named = r.withBodyField("tool_choice", "{\"type\":\"function\",\"function\":{\"name\":\"get_time\"}}")
        .withStream(false);
    RequestTrace whole = client.send(ApiStyle.CHAT, null, named);
    assertThat(whole.toolCalls()).singleElement().satisfies(c -> {
      assertThat(c.id()).as("the engine's id: call_ and the completion's").startsWith("call_chatcmpl-");
      assertThat(c).isEqualTo(new RequestTrace.ToolCall(c.id(), "get_time", "{}"));
    });
  }

  @Test
  void underLoadAboveTheKnobTheArgumentsComeOutCut() {
    start(EmbeddedOptions.builder(PerformanceProfile.GQA_DENSE).malformedAbove(1).build());
    CompletionRequest slow = CompletionRequest.of("Tell me more.").withMaxTokens(200).withIgnoreEos(true);
    CompletionRequest call = CompletionRequest.of("Weather?").withMaxTokens(64).withBodyField("tools", TOOLS);
    // Alone, the call parses; with two long generations in the engine as it arrives, it does not.
    assertThat(ReplyCheck.of(call.bodyFields()).judge(client.send(ApiStyle.CHAT, null, call)).replyUnparsed()).isFalse();
    var a = client.sendAsync(ApiStyle.CHAT, null, slow, System.nanoTime(), dev.llmbench.internal.client.TextCapture.NONE);
    var b = client.sendAsync(ApiStyle.CHAT, null, slow, System.nanoTime(), dev.llmbench.internal.client.TextCapture.NONE);
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> server.running() >= 2);
    RequestTrace cut = ReplyCheck.of(call.bodyFields()).judge(client.send(ApiStyle.CHAT, null, call));
    assertThat(cut.replyProblem().orElseThrow()).startsWith("tool call 'get_weather': its arguments are not JSON");
    assertThat(a.join().succeeded() && b.join().succeeded()).isTrue();
  }

  @Test
  void aJsonAnswerIsAnInstanceOfItsSchema() {
    start(EmbeddedOptions.of(PerformanceProfile.INSTANT));
    String format = "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"r\",\"schema\":{\"type\":\"object\",\"properties\":"
        + "{\"city\":{\"type\":\"string\",\"minLength\":12},\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"a\",\"b\"]},"
        + "\"minItems\":2}},\"required\":[\"city\",\"tags\"]}}}";
    CompletionRequest r = CompletionRequest.of("Paris as JSON").withMaxTokens(64).withBodyField("response_format", format);
    RequestTrace t = client.send(ApiStyle.CHAT, null, r);
    assertThat(ReplyCheck.of(r.bodyFields()).judge(t).replyUnparsed()).as(t.content()).isFalse();
    assertThat(t.finishReason()).isEqualTo("stop");
  }

  @Test
  void embeddingsAreDeterministicUnitVectorsAndTheRouteCanBeOff() throws Exception {
    start(EmbeddedOptions.of(PerformanceProfile.INSTANT));
    RequestTrace t = client.embedAsync(null, List.of("alpha beta", "gamma", "alpha beta"), System.nanoTime()).join();
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.embeddings()).isEqualTo(3);
    assertThat(t.serverUsage().orElseThrow().promptTokens()).as("words, as the engine counts them").isEqualTo(2 + 1 + 2);
    JsonNode body = JSON.readTree(client.post(OpenAiClient.EMBEDDINGS, "{\"input\":[\"alpha beta\",\"gamma\",\"alpha beta\"]}"
        .getBytes(java.nio.charset.StandardCharsets.UTF_8)).orElseThrow().body());
    JsonNode data = body.path("data");
    assertThat(data.get(0).path("embedding")).isEqualTo(data.get(2).path("embedding")).isNotEqualTo(data.get(1).path("embedding"));
    double norm = 0;
    for (JsonNode v : data.get(1).path("embedding")) norm += v.asDouble() * v.asDouble();
    assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    stop();
    start(EmbeddedOptions.builder(PerformanceProfile.INSTANT).embeddingsRoute(false).build());
    RequestTrace off = client.embedAsync(null, List.of("x"), System.nanoTime()).join();
    assertThat(off.succeeded()).isFalse();
    assertThat(off.failure().status()).isEqualTo(404);
  }
}
