package dev.llmbench.deployments;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.internal.spi.Parameter;
import dev.llmbench.internal.spi.SweepSetup;
import java.util.List;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The deployment comparison in the registry: the {@link Deployment}s (or {@code llmbench.deployments}) each level is
 * measured on, the comparison of them at each load, and the {@link DeploymentLevels} a method may take.
 */
@API(status = INTERNAL)
public final class DeploymentsRegistration implements Feature {

  @Override
  public String key() {
    return "deployments";
  }

  @Override
  public List<Setting<?>> settings() {
    return DeploymentKeys.ALL;
  }

  /** The deployments' comparison first: its conclusions lead the sweep's. */
  @Override
  public int sectionOrder() {
    return 100;
  }

  @Override
  public List<DeploymentSpec> deployments(ExtensionContext context) {
    return DeploymentSettings.of(context);
  }

  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    if (setup.deployments().isEmpty()) return List.of();
    return List.of(new DeploymentsFeature(setup.deployments(), MatrixResume.open(setup, DeploymentSettings.of(setup.context()))));
  }

  /** The levels' own deployments, in order of first appearance: a merge has no annotations to read. */
  @Override
  public List<SweepFeature> merged(List<MeasuredLevel> levels) {
    return List.of(DeploymentsFeature.of(levels));
  }

  /** What each level's tokens cost, when its deployment has a price: any level, compared or not. */
  @Override
  public List<LevelReading> readings() {
    return List.of(new CostReading());
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(new Parameter(DeploymentLevels.class, (name, level, afterSweep) -> {
      throw new IllegalStateException(name + " compares no deployments: DeploymentLevels needs two or more @Deployment"
          + (afterSweep ? "" : ", or the setting llmbench.deployments"));
    }));
  }
}
