package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.client.Usage;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** OpenAI-style bodies, streamed or whole, read into compact traces; bad bodies become failures of their kind. */
class ChatStreamParserTests {

  private static final String ROLE = "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n";

  private static String content(String text) {
    return "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
        + text + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
  }

  private static String reasoning(String field, String text) {
    return "data: {\"choices\":[{\"delta\":{\"" + field + "\":\"" + text + "\"}}]}\n\n";
  }

  private static final String FINISH = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
  private static final String DONE = "data: [DONE]\n\n";

  private static RequestTrace parse(String body) {
    return parse(body.getBytes(StandardCharsets.UTF_8), TextCapture.FULL);
  }

  /** Feeds {@code body} in reads cut at {@code cuts}; read {@code i} arrives at time {@code 1000 + i}. */
  private static RequestTrace parse(byte[] body, TextCapture capture, int... cuts) {
    StreamRecorder recorder = new StreamRecorder(capture, 0, 0, 1);
    recorder.headers(200, 1, true);
    ChatStreamParser parser = ChatStreamParser.eventStream(recorder);
    int from = 0;
    long time = 1000;
    for (int cut : cuts) {
      if (!parser.feed(body, from, cut, time++)) return parser.finish(time);
      from = cut;
    }
    parser.feed(body, from, body.length, time);
    return parser.finish(time);
  }

  private static RequestTrace parseJsonBody(String body) {
    StreamRecorder recorder = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    recorder.headers(200, 1, false);
    ChatStreamParser parser = ChatStreamParser.jsonBody(recorder, "application/json");
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    parser.feed(bytes, 0, bytes.length, 5);
    return parser.finish(6);
  }

  @Test
  void perChunkUsageTellsTheFirstTokenChunksTokensAndTheStreamEndsAfterTheLateUsage() {
    // vLLM's continuous_usage_stats: every chunk carries the usage so far, the role chunk's 0 included.
    String role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],"
        + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":0}}\n\n";
    String first = "data: {\"choices\":[{\"delta\":{\"content\":\"Paris\"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}\n\n";
    String next = "data: {\"choices\":[{\"delta\":{\"content\":\" is\"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":4}}\n\n";
    String usage = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":4}}\n\n";
    byte[] body = (role + first + next + FINISH + usage + DONE).getBytes(StandardCharsets.UTF_8);
    int finish = (role + first + next + FINISH).length();
    RequestTrace t = parse(body, TextCapture.FULL, finish);
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.firstChunkTokens()).isEqualTo(3);
    assertThat(t.serverUsage()).contains(new Usage(5, 4, null));
    assertThat(t.endNanos()).isEqualTo(1000); // the finish chunk, in the first read
    assertThat(t.streamEndNanos()).isEqualTo(1001); // the usage chunk and [DONE], in the second
  }

  @Test
  void withoutPerChunkUsageTheFirstChunksTokensAreUnknown() {
    RequestTrace t = parse(ROLE + content("Par") + content("is") + FINISH
        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}\n\n" + DONE);
    assertThat(t.firstChunkTokens()).isEqualTo(-1);
  }

  @Test
  void keepsTimesCountsUsageAndTextOfAChatStream() {
    RequestTrace t = parse(ROLE + reasoning("reasoning_content", "hm") + reasoning("reasoning", "m") + content("Par")
        + content("is") + FINISH
        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":4,\"total_tokens\":9,"
        + "\"completion_tokens_details\":{\"reasoning_tokens\":2},\"prompt_tokens_details\":{\"cached_tokens\":3}}}\n\n"
        + DONE);
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.content()).isEqualTo("Paris");
    assertThat(t.reasoning()).isEqualTo("hmm");
    assertThat(t.tokenChunks()).isEqualTo(4);
    assertThat(t.firstReasoningIndex()).isZero();
    assertThat(t.firstContentIndex()).isEqualTo(2);
    assertThat(t.reasoningChunks()).isEqualTo(2);
    assertThat(t.isReasoning(1)).isTrue();
    assertThat(t.isContent(1)).isFalse();
    assertThat(t.isContent(3)).isTrue();
    assertThat(t.choiceEvents()).isEqualTo(6);
    assertThat(t.events()).isEqualTo(7);
    assertThat(t.contentChars()).isEqualTo(5);
    assertThat(t.reasoningChars()).isEqualTo(3);
    assertThat(t.finishReason()).isEqualTo("stop");
    assertThat(t.serverUsage()).contains(new Usage(5, 4, 2));
    assertThat(t.cachedTokens()).isEqualTo(3);
    assertThat(t.done()).isTrue();
    assertThat(t.textComplete()).isTrue();
  }

  @Test
  void eachTokenChunkArrivesWithTheReadThatCompletedIt() {
    byte[] body = (ROLE + content("a") + content("b") + FINISH + DONE).getBytes(StandardCharsets.UTF_8);
    int afterA = (ROLE + content("a")).length();
    // Read 0 ends one byte before the end of "a"'s event; read 1 ends after "b"'s; read 2 is the rest.
    RequestTrace t = parse(body, TextCapture.FULL, afterA - 1, (ROLE + content("a") + content("b")).length());
    assertThat(new long[] {t.tokenNanos(0), t.tokenNanos(1)}).containsExactly(1001L, 1001L);
    assertThat(t.tokenChunks()).isEqualTo(2);
    assertThat(t.endNanos()).as("the finish chunk is the last choices event").isEqualTo(1002L);
    assertThat(t.ttftNanos()).isEqualTo(1001L);
    long[] gaps = new long[2];
    int[] n = {0};
    t.forEachItlNanos(g -> gaps[n[0]++] = g);
    assertThat(n[0]).isEqualTo(1);
    assertThat(gaps[0]).isZero();
  }

  @Test
  void sameTraceOnEveryReadBoundaryWithCrlfCommentsAndMultiLineData() {
    String stream = ": keep-alive\r\n\r\n" + ROLE.replace("\n", "\r\n")
        + "event: chunk\nid: 1\ndata: {\"choices\":[{\"delta\":\ndata:  {\"content\":\"é€\"}}]}\n\n"
        + content("😀").replace("\n", "\r") + FINISH + "data: [DO" + "NE]\n\n";
    byte[] body = stream.getBytes(StandardCharsets.UTF_8);
    RequestTrace whole = parse(body, TextCapture.FULL);
    assertThat(whole.succeeded()).as("%s", whole).isTrue();
    assertThat(whole.content()).isEqualTo("é€😀");
    assertThat(whole.tokenChunks()).isEqualTo(2);
    assertThat(whole.done()).isTrue();
    for (int cut = 1; cut < body.length; cut++) {
      RequestTrace t = parse(body, TextCapture.FULL, cut);
      assertThat(t.succeeded()).as("cut at %d: %s", cut, t).isTrue();
      assertThat(t.content()).as("cut at %d", cut).isEqualTo(whole.content());
      assertThat(t.tokenChunks()).isEqualTo(2);
      assertThat(t.events()).isEqualTo(whole.events());
      assertThat(t.finishReason()).isEqualTo("stop");
    }
    int[] everyByte = new int[body.length - 1];
    for (int i = 0; i < everyByte.length; i++) everyByte[i] = i + 1;
    RequestTrace byByte = parse(body, TextCapture.FULL, everyByte);
    assertThat(byByte.content()).isEqualTo(whole.content());
    assertThat(byByte.done()).isTrue();
  }

  @Test
  void randomReadBoundariesOverAThousandChunks() {
    StringBuilder s = new StringBuilder(ROLE);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      String word = i % 7 == 0 ? " naïve" : " w" + i;
      s.append(content(word));
      expected.append(word);
    }
    s.append(FINISH).append(DONE);
    byte[] body = s.toString().getBytes(StandardCharsets.UTF_8);
    Random random = new Random(42);
    for (int run = 0; run < 20; run++) {
      int[] cuts = random.ints(300, 1, body.length).sorted().toArray();
      RequestTrace t = parse(body, TextCapture.FULL, cuts);
      assertThat(t.succeeded()).isTrue();
      assertThat(t.tokenChunks()).isEqualTo(1000);
      assertThat(t.content()).isEqualTo(expected.toString());
      for (int i = 1; i < t.tokenChunks(); i++) assertThat(t.tokenNanos(i)).isGreaterThanOrEqualTo(t.tokenNanos(i - 1));
    }
  }

  @Test
  void eachChunksKindIsKeptPastEveryWordOfTheKindArray() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 200; i++) s.append(i % 3 == 0 ? reasoning("reasoning", "r") : content("c"));
    RequestTrace t = parse(s.append(FINISH).append(DONE).toString());
    assertThat(t.tokenChunks()).isEqualTo(200);
    for (int i = 0; i < 200; i++) {
      assertThat(t.isReasoning(i)).as("chunk %d", i).isEqualTo(i % 3 == 0);
      assertThat(t.isContent(i)).as("chunk %d", i).isEqualTo(i % 3 != 0);
    }
    assertThat(t.reasoningChunks()).isEqualTo(67);
    assertThat(t.firstContentIndex()).isEqualTo(1);
  }

  @Test
  void byteBuffersWithOffsetsAndDirectBuffersReadTheSame() {
    byte[] body = (ROLE + content("a") + FINISH + DONE).getBytes(StandardCharsets.UTF_8);
    StreamRecorder recorder = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    recorder.headers(200, 1, true);
    ChatStreamParser parser = ChatStreamParser.eventStream(recorder);
    byte[] padded = new byte[body.length + 20];
    System.arraycopy(body, 0, padded, 10, 30);
    ByteBuffer slice = ByteBuffer.wrap(padded, 10, 30).slice();
    assertThat(parser.feed(slice, 1)).isTrue();
    assertThat(slice.position()).isZero();
    ByteBuffer direct = ByteBuffer.allocateDirect(body.length - 30);
    direct.put(body, 30, body.length - 30).flip();
    assertThat(parser.feed(direct, 2)).isTrue();
    RequestTrace t = parser.finish(3);
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.content()).isEqualTo("a");
  }

  @Test
  void completionsTextAndToolCallsAreTokens() {
    RequestTrace completions = parse("data: {\"choices\":[{\"text\":\"Hello\",\"index\":0}]}\n\n"
        + "data: {\"choices\":[{\"text\":\"\",\"finish_reason\":\"length\"}]}\n\n" + DONE);
    assertThat(completions.content()).isEqualTo("Hello");
    assertThat(completions.tokenChunks()).isEqualTo(1);
    RequestTrace tools = parse("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}\n\n"
        + "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\"\"}}]}}]}\n\n"
        + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n" + DONE);
    assertThat(tools.succeeded()).isTrue();
    assertThat(tools.tokenChunks()).isEqualTo(2);
    assertThat(tools.firstContentIndex()).isZero();
    assertThat(tools.content()).isEmpty();
  }

  @Test
  void onlyTheFirstChoiceCountsAndUnknownFieldsAreSkippedAtAnyDepth() {
    RequestTrace t = parse("data: {\"x\":{\"choices\":[{\"delta\":{\"content\":\"no\"}}]},\"choices\":[{\"delta\":"
        + "{\"content\":\"yes\",\"extra\":[{\"content\":\"no\"}]},\"logprobs\":{\"content\":[{\"token\":\"no\"}]}},"
        + "{\"delta\":{\"content\":\"second\"}}],\"usage\":null}\n\n" + FINISH + DONE);
    assertThat(t.content()).isEqualTo("yes");
    assertThat(t.tokenChunks()).isEqualTo(1);
    assertThat(t.serverUsage()).isEmpty();
  }

  @Test
  void llamaCppTimingsAreKept() {
    RequestTrace t = parse(content("a") + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],"
        + "\"timings\":{\"prompt_n\":3,\"predicted_per_second\":41.5,\"note\":\"x\"}}\n\n" + DONE);
    assertThat(t.serverTimings()).containsEntry("prompt_n", 3.0).containsEntry("predicted_per_second", 41.5)
        .doesNotContainKey("note");
  }

  @Test
  void textIsCutToTheCaptureLimitButCountsAreWhole() {
    byte[] body = (content("abc") + content("def") + reasoning("reasoning_content", "xyz") + FINISH + DONE)
        .getBytes(StandardCharsets.UTF_8);
    RequestTrace excerpt = parse(body, TextCapture.excerpt(4));
    assertThat(excerpt.content()).isEqualTo("abcd");
    assertThat(excerpt.reasoning()).isEqualTo("xyz");
    assertThat(excerpt.contentChars()).isEqualTo(6);
    assertThat(excerpt.textComplete()).isFalse();
    RequestTrace none = parse(body, TextCapture.NONE);
    assertThat(none.content()).isEmpty();
    assertThat(none.tokenChunks()).isEqualTo(3);
    assertThat(none.succeeded()).isTrue();
  }

  @Test
  void captureLimitNeverSplitsASurrogatePair() {
    RequestTrace t = parse((content("a😀") + FINISH + DONE).getBytes(StandardCharsets.UTF_8), TextCapture.excerpt(2));
    assertThat(t.content()).isEqualTo("a");
  }

  @Test
  void fiveMebibyteContentLineIsReadWholeOrCounted() {
    String big = "x".repeat(5 << 20);
    byte[] body = (ROLE + content(big) + FINISH + DONE).getBytes(StandardCharsets.UTF_8);
    int[] cuts = new Random(3).ints(50, 1, body.length).sorted().toArray();
    RequestTrace full = parse(body, TextCapture.FULL, cuts);
    assertThat(full.succeeded()).as("%s", full).isTrue();
    assertThat(full.content()).hasSize(5 << 20);
    RequestTrace counted = parse(body, TextCapture.EXCERPT, cuts);
    assertThat(counted.contentChars()).isEqualTo(5 << 20);
    assertThat(counted.content()).hasSize(TextCapture.EXCERPT.maxChars());
  }

  @Test
  void invalidUtf8IsAFailureOfItsOwnKindNeverAReplacementCharacter() throws Exception {
    byte[][] bad = {{(byte) 0xFF}, {(byte) 0xC3, 0x28}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}};
    for (byte[] b : bad) {
      for (String field : new String[] {"content", "id"}) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(content("ok").getBytes(StandardCharsets.UTF_8));
        out.write(("data: {\"choices\":[{\"delta\":{\"" + field + "\":\"a").getBytes(StandardCharsets.UTF_8));
        out.write(b);
        out.write(("b\"}}]}\n\n" + FINISH + DONE).getBytes(StandardCharsets.UTF_8));
        byte[] body = out.toByteArray();
        int badAt = (content("ok") + "data: {\"choices\":[{\"delta\":{\"" + field + "\":\"a").length();
        for (int cut : new int[] {0, badAt, badAt + 1}) {
          RequestTrace t = cut == 0 ? parse(body, TextCapture.FULL) : parse(body, TextCapture.FULL, cut);
          assertThat(t.streamFailure()).as("%s in %s", java.util.HexFormat.of().formatHex(b), field).isPresent();
          assertThat(t.streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.INVALID_UTF8);
          assertThat(t.streamFailure().get().message()).startsWith("the stream is not valid UTF-8");
          assertThat(t.content()).isEqualTo("ok").doesNotContain("\uFFFD");
        }
      }
    }
  }

  @Test
  void dataThatIsNotAJsonObjectIsMalformedAndNamesWhatCame() {
    RequestTrace notJson = parse(content("a") + "data: {not json\n\n" + FINISH);
    assertThat(notJson.streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.MALFORMED);
    assertThat(notJson.streamFailure().get().message()).startsWith("an event is not JSON").contains("{not json")
        .doesNotContain("line:").doesNotContain("column:");
    assertThat(notJson.content()).isEqualTo("a");
    assertThat(parse("data: 42\n\n").streamFailure().get().message()).startsWith("an event is not a JSON object");
    assertThat(parse("data: \"x\"\n\n").streamFailure().get().message()).startsWith("an event is not a JSON object");
    assertThat(parse("data: [1,2]\n\n").streamFailure().get().message()).startsWith("an event is neither a JSON object nor [DONE]");
    assertThat(parse("data: {} {}\n\n").streamFailure().get().message()).isEqualTo("an event holds more than one JSON value");
    // A number after the object ends only at a delimiter: the event that holds it fails, not the next one.
    RequestTrace trailing = parse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]} 1\n\n" + content("b") + DONE);
    assertThat(trailing.streamFailure().get().message()).isEqualTo("an event holds more than one JSON value");
    assertThat(trailing.events()).isZero();
    assertThat(parse("data: {\"choices\":[\n\n").streamFailure().get().message()).isEqualTo("an event ended inside its JSON");
  }

  @Test
  void messagesLeaveOutWhatDiffersPerResponseSoThatEqualFailuresGroup() {
    String a = parse("data: {\"id\":\"chatcmpl-81\",\"created\":1796071059,\"choices\":[ x\n\n").streamFailure().get().message();
    String b = parse("data: {\"id\":\"chatcmpl-92\",\"created\":1796071060,\"choices\":[ x\n\n").streamFailure().get().message();
    assertThat(a).isEqualTo(b).contains("\"id\":…").contains("\"created\":…").doesNotContain("chatcmpl-81");
  }

  @Test
  void errorObjectInTheStreamIsAServerError() {
    RequestTrace nested = parse(content("a") + "data: {\"error\":{\"message\":\"out of memory\",\"code\":500}}\n\n" + DONE);
    assertThat(nested.streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.SERVER_ERROR);
    assertThat(nested.streamFailure().get().message()).isEqualTo("the server sent an error: out of memory");
    RequestTrace flat = parse(content("a") + "data: {\"object\":\"error\",\"message\":\"bad\",\"type\":\"X\"}\n\n" + DONE);
    assertThat(flat.streamFailure().get().message()).isEqualTo("the server sent an error: bad");
    assertThat(parse(content("a") + "data: {\"error\":\"plain\"}\n\n" + DONE).streamFailure().get().message()).endsWith("plain");
  }

  @Test
  void streamsThatEndWrongAreFailuresOfTheirKind() {
    assertThat(parse(content("a")).streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.NO_FINISH);
    assertThat(parse(ROLE + DONE).streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.EMPTY);
    assertThat(parse("").streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.NO_FINISH);
    RequestTrace cut = parse(content("a") + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}");
    assertThat(cut.streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.CUT_MID_STREAM);
    assertThat(cut.content()).as("text of an event cut in half is dropped").isEqualTo("a");
  }

  @Test
  void aLastEventCompleteButForItsBlankLineStillCounts() {
    assertThat(parse(content("a") + FINISH + "data: [DONE]").done()).isTrue();
    RequestTrace t = parse(content("a") + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n");
    assertThat(t.succeeded()).isTrue();
    assertThat(t.finishReason()).isEqualTo("stop");
  }

  @Test
  void blankDataEventsAreKeepAlives() {
    RequestTrace t = parse("data:\n\ndata:   \n\n" + content("a") + FINISH + DONE);
    assertThat(t.succeeded()).isTrue();
    assertThat(t.events()).isEqualTo(2);
  }

  @Test
  void wholeJsonBodyIsOneMessage() {
    RequestTrace t = parseJsonBody("  {\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\",\"reasoning_content\":\"r\"},"
        + "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":1}}\n");
    assertThat(t.succeeded()).as("%s", t).isTrue();
    assertThat(t.streamed()).isFalse();
    assertThat(t.content()).isEqualTo("ok");
    assertThat(t.reasoning()).isEqualTo("r");
    assertThat(t.tokenChunks()).isEqualTo(1);
    assertThat(t.tokenNanos(0)).isEqualTo(6);
    assertThat(t.finishReason()).isEqualTo("length");
    assertThat(t.serverUsage()).contains(new Usage(2, 1, null));
    assertThat(parseJsonBody("{\"choices\":[]}").streamFailure().get().cause()).isEqualTo(StreamFailure.Cause.EMPTY);
    assertThat(parseJsonBody("<html>").streamFailure().get().message()).startsWith("the body is not JSON");
    assertThat(parseJsonBody("{\"choices\":[").streamFailure().get().message()).isEqualTo("the body ended inside its JSON");
    assertThat(parseJsonBody("").streamFailure().get().message()).isEqualTo("the body is empty");
  }

  @Test
  void eventStreamSentAsJsonNamesTheContentType() {
    StreamFailure f = parseJsonBody(content("a") + DONE).streamFailure().get();
    assertThat(f.cause()).isEqualTo(StreamFailure.Cause.UNEXPECTED_CONTENT_TYPE);
    assertThat(f.message()).contains("Content-Type is 'application/json'");
  }
}
