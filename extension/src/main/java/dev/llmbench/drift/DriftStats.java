package dev.llmbench.drift;

import dev.llmbench.internal.client.ReplyTokens;
import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.internal.metrics.Percentiles;
import dev.llmbench.result.ConfidenceInterval;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The figures of {@link DriftComparison}, formulas in docs/drift.md. Token by token, greedy: the replies agree up to
 * their common prefix; at each position of it, and at the one after it, both saw the same context, so their top-k
 * distributions are compared there (llama-perplexity compares every position of a fixed text instead; a chat server
 * cannot be made to read another model's reply as its own).
 */
final class DriftStats {

  /** Floor of a probability in a KL term: a tail of 0 on one side only would be infinite. */
  static final double FLOOR = 1e-10;

  private DriftStats() {}

  /** One prompt's figures. */
  private record Pair(boolean identical, int prefix, int referenceLength, int positions, int agreeing, double kld) {}

  static DriftComparison compare(String candidate, LevelReplies c, String reference, LevelReplies r, String load) {
    List<Pair> pairs = new ArrayList<>();
    List<Double> klds = new ArrayList<>();
    double topMass = 0;
    boolean scored = false;
    for (Map.Entry<Integer, LevelReplies.Reply> e : r.replies().entrySet()) {
      LevelReplies.Reply a = e.getValue();
      LevelReplies.Reply b = c.replies().get(e.getKey());
      if (b == null) continue;
      // Tokens by id or bytes where both sent logprobs; by the stream's chunks where either did not.
      boolean both = !a.scored().isEmpty() && !b.scored().isEmpty();
      List<String> ta = both ? a.tokens() : texts(a);
      List<String> tb = both ? b.tokens() : texts(b);
      int prefix = 0;
      while (prefix < ta.size() && prefix < tb.size() && ta.get(prefix).equals(tb.get(prefix))) prefix++;
      boolean identical = both ? ta.equals(tb) : a.text().equals(b.text());
      if (!both) prefix = identical ? ta.size() : Math.min(prefix, ta.size());
      int positions = 0;
      int agreeing = 0;
      double kld = 0;
      if (both) {
        scored = true;
        int last = Math.min(prefix, Math.min(a.scored().size(), b.scored().size()) - 1);
        for (int i = 0; i <= last; i++) {
          ReplyTokens.Token x = a.scored().get(i);
          ReplyTokens.Token y = b.scored().get(i);
          if (x.top().isEmpty() || y.top().isEmpty()) continue;
          positions++;
          if (x.key().equals(y.key())) agreeing++;
          double k = kld(x.top(), y.top());
          for (ReplyTokens.Choice t : x.top()) topMass += Math.exp(t.logprob());
          kld += k;
          klds.add(k);
        }
      }
      pairs.add(new Pair(identical, prefix, ta.size(), positions, agreeing, kld));
    }
    int n = pairs.size();
    int identical = (int) pairs.stream().filter(Pair::identical).count();
    ConfidenceInterval share = Bootstrap.ratio(pairs, p -> p.identical() ? 1 : 0, p -> 1, 1);
    ConfidenceInterval prefix = Bootstrap.ratio(pairs, Pair::prefix, p -> 1, 1);
    double length = pairs.stream().mapToInt(Pair::referenceLength).average().orElse(0);
    int positions = pairs.stream().mapToInt(Pair::positions).sum();
    if (!scored || positions == 0) {
      return new DriftComparison(candidate, reference, load, n, identical, share, prefix, length, 0, Optional.empty(),
          Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }
    double[] all = klds.stream().mapToDouble(Double::doubleValue).toArray();
    return new DriftComparison(candidate, reference, load, n, identical, share, prefix, length, positions,
        Optional.of(Bootstrap.ratio(pairs, Pair::agreeing, Pair::positions, 1)),
        Optional.of(Bootstrap.ratio(pairs, Pair::kld, Pair::positions, 1)), Optional.of(Percentiles.of(all, 99)),
        Optional.of(java.util.Arrays.stream(all).max().orElse(0)), Optional.of(topMass / positions));
  }

  private static List<String> texts(LevelReplies.Reply r) {
    return r.tokens().stream().allMatch(k -> k.startsWith("text:")) ? r.tokens()
        : List.of("text:" + r.text()); // tokens by id on one side only: the text is all both have in common
  }

  /**
   * KL(P_ref || Q_cand) in nats over the tokens both top-k lists name, plus one bucket for everything else on each side
   * (1 minus what the named tokens hold). Merging tokens into a bucket never raises a KL divergence (the log-sum
   * inequality), so this is a lower bound of the full-vocabulary KL that llama-perplexity computes, and 0 only when
   * both lists agree on what they share.
   */
  static double kld(List<ReplyTokens.Choice> reference, List<ReplyTokens.Choice> candidate) {
    Map<String, Double> q = new HashMap<>();
    for (ReplyTokens.Choice c : candidate) q.putIfAbsent(c.key(), Math.exp(c.logprob()));
    double kl = 0;
    double pShared = 0;
    double qShared = 0;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (ReplyTokens.Choice c : reference) {
      Double qi = q.get(c.key());
      if (qi == null || !seen.add(c.key())) continue;
      double pi = Math.exp(c.logprob());
      pShared += pi;
      qShared += qi;
      if (pi > 0) kl += pi * Math.log(pi / Math.max(qi, FLOOR));
    }
    double pTail = Math.max(0, 1 - pShared);
    double qTail = Math.max(0, 1 - qShared);
    if (pTail > FLOOR) kl += pTail * Math.log(pTail / Math.max(qTail, FLOOR));
    return Math.max(0, kl);
  }
}
