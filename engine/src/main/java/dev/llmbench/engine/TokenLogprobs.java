package dev.llmbench.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engine's greedy log-probabilities, and the variants of a profile that drift from it, so that a test knows the
 * exact drift a candidate shows against the reference (docs/drift.md).
 *
 * <p>Every content token at position {@code i} of a reply is the top-1 of a fixed distribution: the chosen token with
 * probability 1/2, then {@code k - 1} alternatives with 1/4, 1/8, ... ({@link #probability}). A token's id is a hash
 * of its text ({@link #id}); its bytes are its UTF-8. A profile named {@code <profile>+diverge=N} answers every prompt
 * as the profile does up to position {@code N}, where it picks the reference's second choice (the two swap
 * probabilities) and then goes on with other words; {@code <profile>+no-logprobs} ignores {@code logprobs} as a
 * server without them does.
 *
 * @param divergeAt  the first position that differs from the profile's own answer, or -1 for none
 * @param logprobs   whether {@code "logprobs": true} is answered
 */
record TokenLogprobs(int divergeAt, boolean logprobs) {

  static final TokenLogprobs NONE = new TokenLogprobs(-1, true);
  private static final Pattern DIVERGE = Pattern.compile("\\+diverge=(\\d+)");

  /** The variant a profile name carries after its base name, e.g. {@code instant+diverge=5}. */
  static TokenLogprobs of(String profileName) {
    Matcher m = DIVERGE.matcher(profileName);
    int at = m.find() ? Integer.parseInt(m.group(1)) : -1;
    return new TokenLogprobs(at, !profileName.contains("+no-logprobs"));
  }

  /** The base name of a profile with variants: {@code instant} of {@code instant+diverge=5}. */
  static String base(String profileName) {
    int plus = profileName.indexOf('+');
    return plus < 0 ? profileName : profileName.substring(0, plus);
  }

  /** Whether {@code name} carries only variants this class knows. */
  static boolean knows(String profileName) {
    String rest = profileName.substring(base(profileName).length());
    return rest.replaceAll("\\+diverge=\\d+", "").replace("+no-logprobs", "").isEmpty();
  }

  /** The answer this variant gives where the profile gives {@code answer}. */
  List<String> answer(List<String> answer) {
    if (divergeAt < 0 || divergeAt >= answer.size()) return answer;
    List<String> out = new ArrayList<>(answer.subList(0, divergeAt));
    out.add(alternative(answer.get(divergeAt), 1));
    for (int i = divergeAt + 1; i < answer.size(); i++) out.add(alternative(answer.get(i), 2));
    return out;
  }

  /** Probability of the {@code rank}-th choice (0 the top one): 1/2, 1/4, 1/8, ... */
  static double probability(int rank) {
    return Math.pow(2, -(rank + 1));
  }

  /** A token's id: a hash of its text, as stable as the text. */
  static int id(String token) {
    return Math.floorMod(token.hashCode(), 32_000);
  }

  /** The {@code rank}-th alternative to {@code token} (rank 1 the second choice): a word of its own. */
  static String alternative(String token, int rank) {
    return token + "~" + rank;
  }

  /**
   * The {@code logprobs.content} entry of the token at {@code position}, with {@code top} alternatives (OpenAI's
   * {@code top_logprobs}). At the divergence position the chosen token is the reference's second choice, and the
   * reference's choice its second.
   */
  void entry(ArrayNode content, String token, int position, int top) {
    List<String> ranked = new ArrayList<>();
    if (position == divergeAt && token.endsWith("~1")) {
      String original = token.substring(0, token.length() - 2);
      ranked.add(token);
      ranked.add(original);
      for (int r = 2; r < Math.max(top, 1); r++) ranked.add(alternative(original, r));
    } else {
      ranked.add(token);
      for (int r = 1; r < Math.max(top, 1); r++) ranked.add(alternative(token, r));
    }
    ObjectNode e = node(content.addObject(), ranked.get(0), 0);
    ArrayNode alternatives = e.putArray("top_logprobs");
    for (int r = 0; r < top; r++) node(alternatives.addObject(), ranked.get(r), r);
  }

  private static ObjectNode node(ObjectNode o, String token, int rank) {
    o.put("id", id(token)).put("token", token).put("logprob", Math.log(probability(rank)));
    ArrayNode bytes = o.putArray("bytes");
    for (byte b : token.getBytes(StandardCharsets.UTF_8)) bytes.add(b & 0xff);
    return o;
  }

  /** {@code top_logprobs} as a request asks, 0 to 20 (OpenAI's bound), or empty when it asks for no logprobs. */
  static Optional<Integer> asked(com.fasterxml.jackson.databind.JsonNode body) {
    if (!body.path("logprobs").asBoolean(false)) return Optional.empty();
    return Optional.of(Math.max(0, Math.min(20, body.path("top_logprobs").asInt(0))));
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "diverge at %d%s", divergeAt, logprobs ? "" : ", no logprobs");
  }
}
