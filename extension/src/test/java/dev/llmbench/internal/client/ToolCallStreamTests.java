package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Tool calls streamed as deltas (and whole), and embeddings answers, read into traces. */
class ToolCallStreamTests {

  private static final String DONE = "data: [DONE]\n\n";

  private static String call(String fields) {
    return "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[" + fields + "]},\"finish_reason\":null}]}\n\n";
  }

  private static RequestTrace stream(String body, TextCapture capture, int... cuts) {
    StreamRecorder recorder = new StreamRecorder(capture, 0, 0, 1);
    recorder.headers(200, 1, true);
    ChatStreamParser parser = ChatStreamParser.eventStream(recorder);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    int from = 0;
    long time = 1000;
    for (int cut : cuts) {
      parser.feed(bytes, from, cut, time++);
      from = cut;
    }
    parser.feed(bytes, from, bytes.length, time);
    return parser.finish(time + 1);
  }

  private static RequestTrace whole(String body) {
    StreamRecorder recorder = new StreamRecorder(TextCapture.NONE, 0, 0, 1);
    recorder.headers(200, 1, false);
    ChatStreamParser parser = ChatStreamParser.jsonBody(recorder, "application/json");
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    parser.feed(bytes, 0, bytes.length, 5);
    return parser.finish(6);
  }

  @Test
  void twoToolCallsStreamedInPiecesAreJoinedByIndexAndTheFirstCallChunkIsTimed() {
    String body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
        + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Let me look.\"}}]}\n\n"
        + call("{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}")
        + call("{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\": \"}}")
        + call("{\"index\":1,\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"get_time\",\"arguments\":\"{}\"}}")
        + call("{\"index\":0,\"function\":{\"arguments\":\"\\\"Paris\\\"}\"}}")
        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" + DONE;
    // Cut inside events too: a call's pieces must not depend on how the bytes arrived.
    RequestTrace t = stream(body, TextCapture.FULL, 37, 180, 181, 300);
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.toolCalls()).containsExactly(new RequestTrace.ToolCall("call_1", "get_weather", "{\"city\": \"Paris\"}"),
        new RequestTrace.ToolCall("call_2", "get_time", "{}"));
    assertThat(t.toolCallsComplete()).isTrue();
    assertThat(t.content()).isEqualTo("Let me look.");
    // Chunk 0 is the text, chunk 1 the first carrying a call's name.
    assertThat(t.toolCallTtftNanos()).isEqualTo(t.tokenNanos(1) - t.startNanos());
    assertThat(t.toolCallTtftNanos()).isGreaterThan(t.ttftNanos());
  }

  @Test
  void aCallsIdIsKeptWholeAsTheServerSentItAndCountsNotAgainstItsArguments() {
    // The id a tool message must answer: kept whole even when the capture cuts the arguments.
    RequestTrace t = stream(call("{\"index\":0,\"id\":\"chatcmpl-tool-9f3a\",\"type\":\"function\",\"function\":"
        + "{\"name\":\"f\",\"arguments\":\"{}\"}}") + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
        + "\"tool_calls\"}]}\n\n" + DONE, TextCapture.excerpt(3));
    assertThat(t.toolCalls()).containsExactly(new RequestTrace.ToolCall("chatcmpl-tool-9f3a", "f", "{}"));
    assertThat(t.toolCallsComplete()).isTrue();
  }

  @Test
  void aStreamWithoutToolCallsHasNoneAndNoToolCallTime() {
    RequestTrace t = stream("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n"
        + DONE, TextCapture.FULL);
    assertThat(t.toolCalls()).isEmpty();
    assertThat(t.toolCallTtftNanos()).isEqualTo(-1);
  }

  @Test
  void argumentsLongerThanTheCaptureAreKeptCutAndSaySo() {
    RequestTrace t = stream(call("{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\": 12345}\"}}")
        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" + DONE, TextCapture.excerpt(5));
    assertThat(t.toolCalls()).containsExactly(new RequestTrace.ToolCall("", "f", "{\"a\":"));
    assertThat(t.toolCallsComplete()).isFalse();
  }

  @Test
  void aWholeAnswerWithToolCallsNumbersThemByPosition() {
    StreamRecorder recorder = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    recorder.headers(200, 1, false);
    ChatStreamParser parser = ChatStreamParser.jsonBody(recorder, "application/json");
    byte[] bytes = ("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
        + "{\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\":1}\"}},"
        + "{\"id\":\"b\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"y\\\":2}\"}}]},"
        + "\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":12}}").getBytes(StandardCharsets.UTF_8);
    parser.feed(bytes, 0, bytes.length, 5);
    RequestTrace t = parser.finish(6);
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.toolCalls()).containsExactly(new RequestTrace.ToolCall("a", "f", "{\"x\":1}"),
        new RequestTrace.ToolCall("b", "g", "{\"y\":2}"));
  }

  @Test
  void anEmbeddingsAnswerCountsItsVectorsAndSucceedsWithoutTokens() {
    RequestTrace t = whole("{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":[0.1,-0.2,[3]]},"
        + "{\"object\":\"embedding\",\"index\":1,\"embedding\":[0.3,0.4]},{\"object\":\"embedding\",\"index\":2,\"embedding\":\"AAAA\"}],"
        + "\"model\":\"m\",\"usage\":{\"prompt_tokens\":17,\"total_tokens\":17}}");
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.embeddings()).isEqualTo(3);
    assertThat(t.tokenChunks()).isZero();
    assertThat(t.serverUsage().orElseThrow().promptTokens()).isEqualTo(17);
  }

  @Test
  void anEmbeddingsAnswerWithoutVectorsIsAFailure() {
    RequestTrace t = whole("{\"object\":\"list\",\"data\":[],\"usage\":{\"prompt_tokens\":0}}");
    assertThat(t.succeeded()).isFalse();
    assertThat(t.embeddings()).isZero();
  }
}
