package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A reply's tokens as the server named them in {@code choices[0].logprobs.content} (OpenAI chat's shape, also
 * llama-server's and vLLM's): each token by a key (its {@code id} where the server gives one, else its {@code bytes},
 * else its text: never its decoded text when either of the others is there, since a token may be half a UTF-8
 * character), its log-probability and its {@code top_logprobs}. Kept only for replies read whole.
 *
 * @param tokens in the order generated
 */
@API(status = INTERNAL)
public record ReplyTokens(List<Token> tokens) {

  public static final ReplyTokens NONE = new ReplyTokens(List.of());

  public ReplyTokens {
    tokens = List.copyOf(tokens);
  }

  /**
   * One generated token.
   *
   * @param key     {@code id:N}, {@code bytes:HEX} or {@code text:T}
   * @param logprob its log-probability (NaN when the server gave none)
   * @param top     the server's {@code top_logprobs}, most likely first as sent
   */
  public record Token(String key, double logprob, List<Choice> top) {
    public Token {
      top = List.copyOf(top);
    }
  }

  /**
   * One of the most likely tokens at a position.
   *
   * @param key     as {@link Token#key()}
   * @param logprob its log-probability
   */
  public record Choice(String key, double logprob) {}

  public boolean isEmpty() {
    return tokens.isEmpty();
  }

  /** The key of a token given by these parts, whichever the server sent: id first, then bytes, then the text. */
  static String key(int id, byte[] bytes, int byteCount, String text) {
    if (id >= 0) return "id:" + id;
    if (byteCount >= 0) {
      StringBuilder hex = new StringBuilder("bytes:");
      for (int i = 0; i < byteCount; i++) hex.append(String.format("%02x", bytes[i] & 0xff));
      return hex.toString();
    }
    return "text:" + (text == null ? "" : text);
  }
}
