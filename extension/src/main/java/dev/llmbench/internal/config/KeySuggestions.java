package dev.llmbench.internal.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The known key nearest to one nobody knows: a misspelled {@code llmbench.baseurl} is meant as
 * {@code llmbench.base-url}. Nearest by edit distance (optimal string alignment: an insertion, deletion, substitution
 * or swap of two neighbours costs one), ignoring case. Written here because no library LLMBench brings has one
 * (commons-lang3's comes only with the optional Testcontainers).
 */
@API(status = INTERNAL)
public final class KeySuggestions {

  private KeySuggestions() {}

  /**
   * A suggestion for {@code typed}: the nearest of {@code known}, when it is near enough to be what was meant (at most
   * a third of the name after the prefix changed, and at least one edit allowed), else a known key that is the typed one
   * cut short or run on at a separator; empty when none is.
   *
   * @param prefix what every key starts with ({@code llmbench.}, {@code LLMBENCH_}), left out of the measure
   */
  public static Optional<String> nearest(String typed, Collection<String> known, String prefix) {
    String t = strip(typed, prefix);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(t, strip(k, prefix));
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    if (best != null && bestDistance <= Math.max(1, t.length() / 3)) return Optional.of(best);
    // A key cut short or run on: llmbench.api-key for llmbench.api-key-env.
    return known.stream().filter(k -> extends_(strip(k, prefix), t)).findFirst()
        .or(() -> known.stream().filter(k -> extends_(t, strip(k, prefix))).findFirst());
  }

  /** Whether {@code longer} is {@code shorter} and more, from a separator on. */
  private static boolean extends_(String longer, String shorter) {
    return !shorter.isEmpty() && longer.length() > shorter.length() && longer.startsWith(shorter)
        && "._-".indexOf(longer.charAt(shorter.length())) >= 0;
  }

  private static String strip(String key, String prefix) {
    String k = key.toLowerCase(Locale.ROOT);
    String p = prefix.toLowerCase(Locale.ROOT);
    return k.startsWith(p) ? k.substring(p.length()) : k;
  }

  /** Optimal string alignment distance: Levenshtein's, and a swap of two neighbours costs one. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) d[i][0] = i;
    for (int j = 0; j <= b.length(); j++) d[0][j] = j;
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
