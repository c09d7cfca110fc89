package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's levels grouped by workload (max_tokens and input length), each group ordered by load, so
 * that a sweep crossing C with several output lengths reads as one curve per length.
 */
public final class SweepGroups {

  private SweepGroups() {}

  /** Group label (empty when there is one group) to its levels, by ascending concurrency or rate. */
  public static Map<String, List<SweepLevelResult>> of(List<SweepLevelResult> levels) {
    boolean manyMax = levels.stream().map(l -> l.plan().maxTokens()).distinct().count() > 1;
    boolean manyInput = levels.stream().map(l -> l.plan().inputTokens()).distinct().count() > 1;
    Map<String, List<SweepLevelResult>> groups = new LinkedHashMap<>();
    for (SweepLevelResult l : levels) {
      List<String> parts = new ArrayList<>();
      if (manyInput) parts.add("input_tokens=" + l.plan().inputTokens());
      if (manyMax) parts.add("max_tokens=" + l.plan().maxTokens());
      groups.computeIfAbsent(String.join(", ", parts), k -> new ArrayList<>()).add(l);
    }
    groups.replaceAll((k, v) -> v.stream().sorted(byLoad()).toList());
    return groups;
  }

  /** Closed-loop levels by concurrency, open-loop levels by rate. */
  public static Comparator<SweepLevelResult> byLoad() {
    return Comparator.comparingDouble((SweepLevelResult l) -> l.plan().rate()).thenComparingInt(SweepLevelResult::concurrency);
  }
}
