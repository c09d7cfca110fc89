package dev.llmbench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded engine's "weights": canned answers to the two smoke prompts every deployment is checked
 * with, and seeded text for everything else, cut into word-sized tokens.
 */
final class TextModel {

  private static final Pattern TOKEN = Pattern.compile("\\s*[\\p{L}\\p{N}_]+|\\s*[^\\s\\p{L}\\p{N}_]|\\s+");

  private static final String PARIS = "The capital of France is Paris.";

  private static final String PRIME = """
      Here is a Python function that checks whether a number is prime:

      ```python
      def is_prime(n: int) -> bool:
          if n < 2:
              return False
          if n % 2 == 0:
              return n == 2
          i = 3
          while i * i <= n:
              if n % i == 0:
                  return False
              i += 2
          return True
      ```

      It tries odd divisors up to the square root of n.""";

  private static final String[] WORDS = (
      "the model serves tokens in batches while the scheduler keeps every sequence moving through "
          + "attention and expert layers so that throughput grows with load until memory bandwidth or the "
          + "interconnect becomes the limit and latency starts to rise for each user of the deployment "
          + "cache blocks prefill decode kernel graph weights shard pipeline tensor parallel request queue")
      .split(" ");

  private static final String[] THOUGHTS = (
      "let me think about this step by step first consider what is asked then check each part "
          + "carefully before answering so the reply is correct and complete")
      .split(" ");

  private TextModel() {}

  /** Approximate token count of a text, as the engine bills it in {@code usage.prompt_tokens}. */
  static int countTokens(String text) {
    return tokenize(text).size();
  }

  /**
   * The tokens of {@code text} with {@code before} inserted ahead of the token holding each offset of {@code starts}
   * (ascending), or at the end for offsets past the last token: a chat template's tokens before each message.
   */
  static List<String> tokenize(String text, int[] starts, List<String> before) {
    List<String> tokens = new ArrayList<>();
    Matcher m = TOKEN.matcher(text);
    int next = 0;
    while (m.find()) {
      while (next < starts.length && starts[next] < m.end()) {
        tokens.addAll(before);
        next++;
      }
      tokens.add(m.group());
    }
    for (; next < starts.length; next++) tokens.addAll(before);
    return tokens;
  }

  static List<String> tokenize(String text) {
    List<String> tokens = new ArrayList<>();
    Matcher m = TOKEN.matcher(text);
    while (m.find()) tokens.add(m.group());
    return tokens;
  }

  /**
   * The natural answer to a prompt; generation stops after it unless {@code ignore_eos} is set. A generated
   * eval item is answered right with the profile's {@code accuracy} ({@link EvalReplies}).
   */
  static List<String> answer(String prompt, long seed, double accuracy) {
    return EvalReplies.reply(prompt, seed, accuracy).map(TextModel::tokenize).orElseGet(() -> answer(prompt, seed));
  }

  /** The natural answer to a prompt; generation stops after it unless {@code ignore_eos} is set. */
  static List<String> answer(String prompt, long seed) {
    String p = prompt.toLowerCase(Locale.ROOT);
    if (p.contains("capital of france")) return tokenize(PARIS);
    if (p.contains("prime")) return tokenize(PRIME);
    SplittableRandom random = new SplittableRandom(seed ^ prompt.hashCode());
    int length = 32 + random.nextInt(224);
    List<String> tokens = new ArrayList<>(length);
    for (int i = 0; i < length; i++) tokens.add(" " + WORDS[random.nextInt(WORDS.length)]);
    return tokens;
  }

  /** Seeded filler, used for reasoning and for text past the natural end when {@code ignore_eos} is set. */
  static String filler(SplittableRandom random, boolean thought) {
    String[] pool = thought ? THOUGHTS : WORDS;
    return " " + pool[random.nextInt(pool.length)];
  }
}
