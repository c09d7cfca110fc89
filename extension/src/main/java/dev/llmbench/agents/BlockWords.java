package dev.llmbench.agents;

import java.util.SplittableRandom;

/**
 * The synthetic text of an agent's turns: a block of a trace's {@code hash_ids} is a pure function of its id, so equal
 * ids give byte-equal text (the prefix reuse the trace had) and distinct ids distinct text. A word stands for a token,
 * as LLMBench's synthetic prompts count them; a block cut short (a turn's last) is the start of the full one.
 */
final class BlockWords {

  private static final String[] WORDS = ("the of and to in is for on that with as by at from this be are it an or file "
      + "test function class method error build patch diff line code tool call result search read write edit run "
      + "step plan agent task fix check return value type module import path branch commit review change").split(" ");
  private static final long BLOCKS = 0x626c6f636bL;
  private static final long OWN = 0x6f776e426c6bL;
  private static final long SYSTEM = 0x73797374656dL;

  private BlockWords() {}

  /** A system prompt of {@code tokens} words: the same for every agent that asks for as many (a harness's own prompt). */
  static String system(int tokens) {
    StringBuilder b = new StringBuilder(tokens * 6);
    append(b, SYSTEM ^ mix(tokens), tokens);
    return b.toString();
  }

  /**
   * {@code tokens} words made of the blocks {@code hashIds} of {@code blockTokens} words each (the last may be cut
   * short), or, without ids, of blocks of their own, unique to {@code own}.
   */
  static String text(int tokens, long[] hashIds, int blockTokens, long own) {
    StringBuilder b = new StringBuilder(tokens * 6);
    int left = tokens;
    for (int i = 0; left > 0; i++) {
      int words = Math.min(blockTokens, left);
      if (b.length() > 0) b.append(' ');
      append(b, hashIds != null ? BLOCKS ^ mix(hashIds[i]) : OWN ^ mix(own ^ mix(i)), words);
      left -= words;
    }
    return b.toString();
  }

  private static void append(StringBuilder out, long seed, int words) {
    SplittableRandom random = new SplittableRandom(mix(seed));
    for (int i = 0; i < words; i++) {
      if (i > 0) out.append(' ');
      out.append(WORDS[random.nextInt(WORDS.length)]);
    }
  }

  /** SplitMix64's finaliser: neighbouring inputs give unrelated outputs. */
  static long mix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
