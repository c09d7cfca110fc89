package dev.llmbench.benchmarks.client;

import java.nio.charset.StandardCharsets;

/**
 * The body fast-sse serves (benchmarks/fast-sse/gen_body.py), built in memory: a role chunk, N one-token
 * content chunks, a finish chunk, a usage chunk and [DONE], compact JSON like vLLM's.
 */
final class FastSseBody {

  static final String[] WORDS = {" the", " model", " streams", " one", " token", " per", " chunk", "."};
  /** Chinese prose and escaped code, as a code answer in Chinese streams it (JSON string bodies). */
  static final String[] CHINESE_AND_CODE = {"巴黎", "是", "法国的首都", "。", "\\n", "    return", " n % 2 == 0", "\\n", "\\\"ok\\\""};
  private static final String HEAD = "data: {\"id\":\"chatcmpl-fastsse0000000000000000\",\"object\":\"chat.completion.chunk\","
      + "\"created\":1700000000,\"model\":\"fast-sse\",";

  private FastSseBody() {}

  /** JSON events in a body of {@code n} content chunks ([DONE] not counted). */
  static int events(int n) {
    return n + 3;
  }

  static byte[] of(int n) {
    return of(n, WORDS);
  }

  /** The same body with {@code words} (JSON string bodies) as the chunks' text, in turn. */
  static byte[] of(int n, String[] words) {
    return of(n, words, false);
  }

  /**
   * With {@code usageOnEveryChunk}, each content chunk also carries its running usage, as vLLM sends with
   * {@code stream_options.continuous_usage_stats}: no chunk is plain, so none takes the parser's shortcut.
   */
  static byte[] of(int n, String[] words, boolean usageOnEveryChunk) {
    StringBuilder s = new StringBuilder(n * 220);
    s.append(chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
    for (int i = 0; i < n; i++) {
      String chunk = chunk("{\"content\":\"" + words[i % words.length] + "\"}", "null");
      if (usageOnEveryChunk) {
        chunk = chunk.substring(0, chunk.length() - 3) + ",\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":" + (i + 1)
            + ",\"total_tokens\":" + (17 + i) + "}}\n\n";
      }
      s.append(chunk);
    }
    s.append(chunk("{}", "\"length\""));
    s.append(HEAD).append("\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":").append(n)
        .append(",\"total_tokens\":").append(16 + n).append("}}\n\n");
    s.append("data: [DONE]\n\n");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String chunk(String delta, String finish) {
    return HEAD + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":" + finish + "}]}\n\n";
  }
}
