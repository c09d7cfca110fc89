package dev.llmbench.engine;

import dev.llmbench.engine.sets.GeneratedItem;
import dev.llmbench.engine.sets.GeneratedSets;
import java.util.Optional;

/**
 * The embedded engine's answers to generated eval items, so that quality statistics are tested against a
 * known truth. An item is recognised by its prompt (the last message, exactly as generated); any other
 * prompt gets the engine's usual text.
 *
 * <p>Item {@code id} under request seed {@code s} gets one uniform draw {@code u = unit(id, s)}; the reply is
 * right when {@code u < accuracy}. The draw does not depend on the profile, so on the same items and seed a
 * profile of accuracy 0.85 is right on a subset of the items one of 0.90 is right on: as a quantised model
 * mostly loses the items its original found hardest. A wrong item's reply has no answer the grader can find
 * (unparsed) when a second draw is below one half and the item has such a reply, else a wrong answer.
 */
final class EvalReplies {

  private EvalReplies() {}

  static Optional<String> reply(String prompt, long seed, double accuracy) {
    return GeneratedSets.byPrompt(prompt).map(item -> reply(item, seed, accuracy));
  }

  static String reply(GeneratedItem item, long seed, double accuracy) {
    long h = mix(item.id().hashCode() * 0x9E3779B97F4A7C15L ^ mix(seed));
    if (unit(h) < accuracy) return item.correct();
    return unit(mix(h)) < 0.5 && item.unparsed().isPresent() ? item.unparsed().get() : item.wrong();
  }

  /** SplitMix64's finaliser. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static double unit(long h) {
    return (h >>> 11) * 0x1.0p-53;
  }
}
