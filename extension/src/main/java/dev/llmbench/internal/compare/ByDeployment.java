package dev.llmbench.internal.compare;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.LoadShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A sweep's levels by deployment, for reports that show several deployments side by side: a level of
 * deployment {@code int4} is named {@code C=8 · int4}, its load {@code C=8}. Curves per deployment are
 * {@link dev.llmbench.internal.analysis.SweepGroups#curves}.
 */
@API(status = INTERNAL)
public final class ByDeployment {

  /** Between a level's load and its deployment in names: {@code C=8 · int4}. */
  public static final String SEPARATOR = " · ";

  private ByDeployment() {}

  /** Deployment name ({@code ""} for none) to its levels, in order of first appearance. */
  public static <L extends SweepLevelResult> Map<String, List<L>> of(List<L> levels) {
    Map<String, List<L>> by = new LinkedHashMap<>();
    levels.forEach(l -> by.computeIfAbsent(name(l), k -> new ArrayList<>()).add(l));
    return by;
  }

  public static String name(SweepLevelResult level) {
    return level.endpoint().deployment().orElse("");
  }

  /** Whether the levels come from more than one deployment. */
  public static boolean several(List<? extends SweepLevelResult> levels) {
    return levels.stream().map(ByDeployment::name).distinct().count() > 1;
  }

  /**
   * A level's name in the console's rows, {@code C= 1} as the familiar scripts print it, or the level's own label
   * when it is more than a concurrency; a deployment's level keeps its deployment: {@code C= 1 · gqa}.
   */
  public static String rowLabel(SweepLevelResult l) {
    String deployment = l.endpoint().deployment().map(d -> SEPARATOR + d).orElse("");
    if (l.load() instanceof LoadShape.ClosedLoop && load(l).equals("C=" + l.concurrency())) {
      return String.format(Locale.ROOT, "C=%2d", l.concurrency()) + deployment;
    }
    return l.label();
  }

  /** The level's name without its deployment: {@code C=8}. */
  public static String load(SweepLevelResult level) {
    String suffix = level.endpoint().deployment().map(d -> SEPARATOR + d).orElse("");
    String label = level.label();
    return !suffix.isEmpty() && label.endsWith(suffix) ? label.substring(0, label.length() - suffix.length()) : label;
  }
}
