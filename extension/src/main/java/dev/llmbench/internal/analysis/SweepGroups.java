package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.LoadShape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A sweep's levels grouped by workload (max_tokens and input length), each group ordered by load, so
 * that a sweep crossing C with several output lengths reads as one curve per length.
 */
@API(status = INTERNAL)
public final class SweepGroups {

  private SweepGroups() {}

  /** Group label (empty when there is one group) to its levels, by ascending concurrency or rate. */
  public static Map<String, List<SweepLevelResult>> of(List<? extends SweepLevelResult> levels) {
    boolean manyMax = levels.stream().map(l -> l.maxTokens()).distinct().count() > 1;
    boolean manyInput = levels.stream().map(l -> l.inputTokens()).distinct().count() > 1;
    Map<String, List<SweepLevelResult>> groups = new LinkedHashMap<>();
    for (SweepLevelResult l : levels) {
      List<String> parts = new ArrayList<>();
      if (manyInput) parts.add("input_tokens=" + l.inputTokens());
      if (manyMax) parts.add("max_tokens=" + l.maxTokens());
      groups.computeIfAbsent(String.join(", ", parts), k -> new ArrayList<>()).add(l);
    }
    groups.replaceAll((k, v) -> v.stream().sorted(byLoad()).toList());
    return groups;
  }

  /**
   * The sweep's curves: {@link #of} per deployment when the levels come from several, each named after its
   * deployment ({@code int4} or {@code int4, max_tokens=64}), so that no curve mixes two deployments.
   */
  public static Map<String, List<SweepLevelResult>> curves(List<? extends SweepLevelResult> levels) {
    Map<String, List<SweepLevelResult>> byDeployment = new LinkedHashMap<>();
    levels.forEach(l -> byDeployment.computeIfAbsent(l.endpoint().deployment().orElse(""), k -> new ArrayList<>()).add(l));
    if (byDeployment.size() < 2) return of(levels);
    Map<String, List<SweepLevelResult>> curves = new LinkedHashMap<>();
    byDeployment.forEach((deployment, members) -> of(members).forEach((group, curve) ->
        curves.put(group.isEmpty() ? deployment : deployment + ", " + group, curve)));
    return curves;
  }

  /** Closed-loop levels by concurrency, open-loop levels by rate. */
  public static Comparator<SweepLevelResult> byLoad() {
    return Comparator.comparingDouble(SweepGroups::rate).thenComparingInt(SweepLevelResult::concurrency);
  }

  /** The offered rate of an open-loop level in requests per second; closed-loop levels sort before any rate. */
  public static double rate(SweepLevelResult l) {
    return l.load() instanceof LoadShape.OpenLoop open ? open.rate().perSecond() : 0;
  }
}
