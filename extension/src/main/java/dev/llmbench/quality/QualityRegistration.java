package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.Parameter;
import dev.llmbench.internal.spi.SweepSetup;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The quality eval in the registry: a sweep with {@link QualityEval} grades every level's replies, and its methods
 * may take the level's {@link Quality}.
 */
@API(status = INTERNAL)
public final class QualityRegistration implements Feature {

  @Override
  public String key() {
    return "quality";
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return context.declares(QualityEval.class) ? Optional.of(new EvalInput(context)) : Optional.empty();
  }

  /** After the baseline, before the replies, sessions and trace, as before the registry. */
  @Override
  public int sectionOrder() {
    return 400;
  }

  /** A sweep's only, as before the registry: a capacity search's probes are not graded. */
  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    if (setup.kind() != SweepSetup.Kind.SWEEP) return List.of();
    return QualitySettings.of(setup.context()).<SweepFeature>map(e -> new QualityFeature(e, setup.deployments())).stream()
        .toList();
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(new Parameter(Quality.class, (name, level, afterSweep) -> {
      throw new IllegalStateException(name + " runs no eval: Quality needs @QualityEval on the sweep");
    }));
  }
}
