package dev.llmbench.deployments;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.FeatureSection.AnswerPlace;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.core.SweepRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The comparison of a sweep over several deployments: each deployment's level at a load among those measured
 * so far (a level's {@link DeploymentLevels}), and for the reports the sweep's conclusions (which deployment gives
 * the most goodput, the latency-throughput frontier) and its Pareto chart. Says nothing of levels that come
 * from one deployment only.
 */
final class DeploymentsFeature implements SweepFeature {

  private final ComparedDeployments deployments;
  private final Optional<CandidateLedger> ledger;

  /**
   * @param names  the deployments compared, in the order declared
   * @param ledger what a matrix of launched candidates keeps across runs; empty when none is launched
   */
  public DeploymentsFeature(List<String> names, Optional<CandidateLedger> ledger) {
    this.deployments = new ComparedDeployments(names);
    this.ledger = ledger;
  }

  /** For levels measured elsewhere (a merge of shards): their deployments, in order of first appearance. */
  public static DeploymentsFeature of(List<? extends SweepLevelResult> levels) {
    return new DeploymentsFeature(List.copyOf(ByDeployment.of(List.copyOf(levels)).keySet()), Optional.empty());
  }

  /** A candidate measured completely by an earlier run with the same settings: its level, not measured again. */
  @Override
  public Optional<MeasuredLevel> recorded(SweepRun sweep, LevelContext level, String deployment) {
    return ledger.flatMap(l -> l.recorded(level, deployment));
  }

  /** A launched candidate's folder beside the ledger, where other features keep what they derive from its replies. */
  @Override
  public Optional<Path> keptFolder(SweepRun sweep, String deployment) {
    return ledger.filter(l -> l.holds(deployment)).map(l -> l.candidateDir(deployment));
  }

  /** Each level of a launched candidate kept as it ends, so that a run stopped later resumes after it. */
  @Override
  public void measured(SweepRun sweep, MeasuredLevel level) {
    ledger.ifPresent(l -> level.endpoint().deployment().ifPresent(d -> l.measured(level, d)));
  }

  @Override
  public String key() {
    return "deployments";
  }

  /** The deployments measured so far at the level's load, for its test method. */
  @Override
  public Map<Class<?>, Object> parameters(SweepRun sweep, MeasuredLevel level) {
    return Map.of(DeploymentLevels.class, deployments.at(ByDeployment.load(level), sweep.levels()));
  }

  @Override
  public Optional<FeatureSection> sweep(SweepRun sweep, List<MeasuredLevel> levels) {
    if (!ByDeployment.several(levels)) return Optional.empty();
    List<String> findings = new ArrayList<>();
    List<AnswerPlace> places = new ArrayList<>();
    DeploymentComparison.placed(levels).forEach(f -> {
      findings.add(f.getKey());
      places.add(f.getValue());
    });
    ledger.filter(l -> !l.reused().isEmpty()).ifPresent(l -> {
      findings.add("reused from an earlier run (" + l.dir() + "): " + l.reusedDescription()
          + (l.reused().keySet().containsAll(l.candidates()) ? "; no candidate measured now" : "; the others measured now"));
      places.add(AnswerPlace.DETAIL);
    });
    return Optional.of(FeatureSection.titled("deployments compared").withFindings(findings, places)
        .withCharts(Map.of("pareto", ParetoChart.of(sweep.title(), levels))));
  }
}
