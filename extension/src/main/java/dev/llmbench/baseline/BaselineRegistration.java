package dev.llmbench.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.Parameter;
import dev.llmbench.internal.spi.SweepSetup;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The baseline feature in the registry: a sweep with {@link Baseline} (or {@code llmbench.baseline.vllm}) compares
 * each level with the baseline's, and its methods may take the {@link BaselineComparison}.
 */
@API(status = INTERNAL)
public final class BaselineRegistration implements Feature {

  @Override
  public String key() {
    return "baseline";
  }

  @Override
  public List<Setting<?>> settings() {
    return BaselineKeys.ALL;
  }

  /** After the deployments and the capacity, before the quality, as before the registry. */
  @Override
  public int sectionOrder() {
    return 300;
  }

  /** A sweep's only: a capacity search's probes are not a sweep to compare. */
  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    if (setup.kind() != SweepSetup.Kind.SWEEP) return List.of();
    return BaselineSettings.feature(setup.context(), setup.sweep()).<SweepFeature>map(f -> f).stream().toList();
  }

  /** Without a baseline a method still gets a comparison: no deltas, and why. */
  @Override
  public List<Parameter> parameters() {
    return List.of(new Parameter(BaselineComparison.class, (name, level, afterSweep) -> BaselineSettings.none(level)));
  }
}
