package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code choices[0].logprobs.content} read into a reply's tokens, as llama-server, vLLM and OpenAI send it. */
class LogprobsParserTests {

  /** A chunk as llama-server streams it: id, token, bytes, logprob, then the top list. */
  private static String chunk(String text, int id, int b, double logprob, String top) {
    return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"},\"logprobs\":{\"content\":[{\"id\":" + id
        + ",\"token\":\"" + text + "\",\"bytes\":[" + b + "],\"logprob\":" + logprob + ",\"top_logprobs\":[" + top + "]}]}}]}\n\n";
  }

  private static final String FINISH = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";

  private static RequestTrace parse(String body, TextCapture capture, int... cuts) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    StreamRecorder recorder = new StreamRecorder(capture, 0, 0, 1);
    recorder.headers(200, 0, true);
    ChatStreamParser parser = ChatStreamParser.eventStream(recorder);
    int from = 0;
    long time = 1;
    for (int cut : cuts) {
      parser.feed(bytes, from, cut, time++);
      from = cut;
    }
    parser.feed(bytes, from, bytes.length, time);
    return parser.finish(time + 1);
  }

  @Test
  void eachTokenIsKeyedByItsIdWithItsTopLogprobsOnEveryReadBoundary() {
    String body = chunk("a", 71, 97, -0.5, "{\"id\":71,\"token\":\"a\",\"bytes\":[97],\"logprob\":-0.5},{\"id\":72,\"token\":\"b\","
        + "\"bytes\":[98],\"logprob\":-1.5}") + chunk("b", 72, 98, -0.25, "{\"id\":72,\"token\":\"b\",\"bytes\":[98],\"logprob\":-0.25}")
        + FINISH;
    for (int cut = 1; cut < body.length(); cut += 7) {
      RequestTrace t = parse(body, TextCapture.FULL, cut);
      assertThat(t.succeeded()).as("%s", t).isTrue();
      assertThat(t.replyTokens().tokens()).as("cut at %d", cut).containsExactly(
          new ReplyTokens.Token("id:71", -0.5, List.of(new ReplyTokens.Choice("id:71", -0.5), new ReplyTokens.Choice("id:72", -1.5))),
          new ReplyTokens.Token("id:72", -0.25, List.of(new ReplyTokens.Choice("id:72", -0.25))));
      assertThat(t.contentPieces()).containsExactly("a", "b");
    }
  }

  @Test
  void withoutIdsTokensAreTheirBytesWhicheverOrderTheFieldsComeIn() {
    // OpenAI's shape: no id; here the top list comes before the token's own fields.
    String body = "data: {\"choices\":[{\"delta\":{\"content\":\"\\ufffd\"},\"logprobs\":{\"content\":[{\"top_logprobs\":"
        + "[{\"token\":\"x\",\"bytes\":[200],\"logprob\":-0.1}],\"token\":\"\\ufffd\",\"bytes\":[195],\"logprob\":-0.2}]}}]}\n\n" + FINISH;
    RequestTrace t = parse(body, TextCapture.FULL);
    assertThat(t.replyTokens().tokens()).containsExactly(new ReplyTokens.Token("bytes:c3", -0.2,
        List.of(new ReplyTokens.Choice("bytes:c8", -0.1))));
  }

  @Test
  void aWholeBodysLogprobsAreReadToo() {
    String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ab\"},\"logprobs\":{\"content\":[{\"id\":1,"
        + "\"logprob\":-1,\"top_logprobs\":[]},{\"id\":2,\"logprob\":-2,\"top_logprobs\":[]}]},\"finish_reason\":\"stop\"}]}";
    StreamRecorder recorder = new StreamRecorder(TextCapture.FULL, 0, 0, 1);
    recorder.headers(200, 0, false);
    ChatStreamParser parser = ChatStreamParser.jsonBody(recorder, "application/json");
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    parser.feed(bytes, 0, bytes.length, 1);
    RequestTrace t = parser.finish(2);
    assertThat(t.replyTokens().tokens()).extracting(ReplyTokens.Token::key).containsExactly("id:1", "id:2");
  }

  @Test
  void aLoadRequestsExcerptKeepsNoLogprobsAndNullLogprobsAreNone() {
    String body = chunk("a", 71, 97, -0.5, "") + FINISH;
    assertThat(parse(body, TextCapture.EXCERPT).replyTokens().isEmpty()).isTrue();
    RequestTrace plain = parse("data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"logprobs\":null}]}\n\n" + FINISH, TextCapture.FULL);
    assertThat(plain.succeeded()).isTrue();
    assertThat(plain.replyTokens().isEmpty()).isTrue();
  }
}
