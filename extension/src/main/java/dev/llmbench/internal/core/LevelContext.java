package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A level to measure and what its sweep holds the same for every level: the sweep it belongs to, the SLO
 * it is judged by, the percentiles reported and what the suite said of the deployment. One value where these
 * travel together, from the sweep's plan to the measured level.
 *
 * @param facts what the suite said about the deployment (GPUs, interconnect, ...), for the analysis
 */
@API(status = INTERNAL)
public record LevelContext(SweepRun sweep, LevelPlan plan, ServiceLevels slo, List<Double> percentiles,
    Optional<DeploymentDescription> facts) {

  public LevelContext {
    percentiles = List.copyOf(percentiles);
  }

  /** The same level with another plan: a shard's share of it, its prompts aligned to their exact lengths. */
  public LevelContext withPlan(LevelPlan other) {
    return new LevelContext(sweep, other, slo, percentiles, facts);
  }
}
