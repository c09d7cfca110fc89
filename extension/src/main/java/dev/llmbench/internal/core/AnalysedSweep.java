package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.analysis.ScalingAnalysis;
import dev.llmbench.internal.analysis.SweepGroups;
import dev.llmbench.result.Finding;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** A sweep's levels read by the analysis once: the {@link SweepResult} assertions and reports share. */
@API(status = INTERNAL)
public final class AnalysedSweep implements SweepResult {

  private final String title;
  private final List<SweepLevelResult> levels;
  private final Optional<DeploymentDescription> deployment;
  private final List<Finding> findings;

  public AnalysedSweep(String title, List<? extends SweepLevelResult> levels, Optional<DeploymentDescription> deployment) {
    this.title = title;
    this.levels = List.copyOf(levels);
    this.deployment = deployment;
    // Scaling is read off output tokens per second, which embeddings levels have none of: "0.0x the throughput".
    List<SweepLevelResult> generating = this.levels.stream().filter(l -> !(l instanceof MeasuredLevel m && m.isEmbeddings()))
        .toList();
    this.findings = ScalingAnalysis.all(generating, deployment.orElse(DeploymentDescription.NONE));
  }

  /** A finished (or partly run) sweep as analysed, computed once for all who ask. */
  public static AnalysedSweep of(SweepRun sweep) {
    List<MeasuredLevel> levels = sweep.levels();
    return sweep.memo().get(List.of(AnalysedSweep.class, levels.size()), () -> new AnalysedSweep(sweep.title(), levels,
        levels.isEmpty() ? Optional.empty() : levels.get(0).deploymentDescription()));
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public List<SweepLevelResult> levels() {
    return levels;
  }

  @Override
  public List<Finding> findings() {
    return findings;
  }

  @Override
  public Optional<DeploymentDescription> deploymentDescription() {
    return deployment;
  }

  @Override
  public Optional<Double> scalingEfficiency(int concurrency) {
    return SweepGroups.curves(levels).values().stream()
        .map(group -> ScalingAnalysis.of(group).efficiency(concurrency))
        .flatMap(Optional::stream).findFirst();
  }

  @Override
  public String toString() {
    return title;
  }
}
