package dev.llmbench.trace;

import java.util.SplittableRandom;

/**
 * The text of one block of a trace's prompt: a pure function of the block's id, its namespace and its length,
 * so equal ids give byte-equal text and distinct ids (or namespaces) distinct text. A word stands for a token,
 * as the synthetic prompts count them; a shorter block (a prompt's last) is the start of the full one.
 */
final class BlockText {

  private static final String[] WORDS = ("the of and to in is for on that with as by at from this be are was it an or "
      + "model token batch cache server request prompt stream latency decode prefill kernel memory queue answer user "
      + "context window block layer head weight value key query scale shard node rank step time rate load trace "
      + "replay system reply tool call text code data file line field table chart level sweep").split(" ");

  private BlockText() {}

  /**
   * Appends {@code words} words of block {@code id} in {@code namespace} to {@code out}, separated by single
   * spaces. This is the one place a block's text is made, so that a token-exact alignment can replace it.
   */
  public static void append(StringBuilder out, long namespace, long id, int words) {
    SplittableRandom random = new SplittableRandom(mix(namespace ^ mix(id)));
    for (int i = 0; i < words; i++) {
      if (i > 0) out.append(' ');
      out.append(WORDS[random.nextInt(WORDS.length)]);
    }
  }

  /** Block {@code id}'s text of {@code words} words in {@code namespace}. */
  public static String of(long namespace, long id, int words) {
    StringBuilder b = new StringBuilder(words * 6);
    append(b, namespace, id, words);
    return b.toString();
  }

  /** SplitMix64's finaliser: neighbouring inputs give unrelated outputs. */
  static long mix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
