package dev.llmbench.deployments;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Delta;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.compare.Changes;
import dev.llmbench.internal.compare.Figure;
import dev.llmbench.internal.compare.ComparisonSide;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The deployments a sweep compares, and each one's level at a load among the levels measured so far. */
final class ComparedDeployments {

  private final List<String> names;

  public ComparedDeployments(List<String> names) {
    this.names = List.copyOf(names);
  }

  public List<String> names() {
    return names;
  }

  /** Each deployment's level at {@code load} among {@code measured}, its latest if it has several: a snapshot. */
  public DeploymentLevels at(String load, List<? extends SweepLevelResult> measured) {
    Map<String, SweepLevelResult> byDeployment = new LinkedHashMap<>();
    for (SweepLevelResult l : measured) {
      if (ByDeployment.load(l).equals(load)) byDeployment.put(ByDeployment.name(l), l);
    }
    return new AtLoad(load, names, Map.copyOf(byDeployment));
  }

  private record AtLoad(String load, List<String> deployments, Map<String, SweepLevelResult> measured)
      implements DeploymentLevels {

    @Override
    public Optional<SweepLevelResult> of(String deployment) {
      return Optional.ofNullable(measured.get(deployment));
    }

    @Override
    public Optional<Delta> delta(String candidate, String reference, Metric metric, double percentile, double allowedWorsening) {
      if (!metric.isLatency() && metric != Metric.OUTPUT_THROUGHPUT) {
        throw new IllegalArgumentException("deployments compare on output throughput or a latency, not " + metric);
      }
      SweepLevelResult c = measured.get(candidate);
      SweepLevelResult r = measured.get(reference);
      if (c == null || r == null) return Optional.empty();
      Figure figure = metric.isLatency() ? Figure.of(metric, percentile) : Figure.of(metric);
      return Changes.delta(ComparisonSide.of(r), ComparisonSide.of(c), figure, allowedWorsening);
    }

    @Override
    public String toString() {
      return "deployments at " + load;
    }
  }
}
