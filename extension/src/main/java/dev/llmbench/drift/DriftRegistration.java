package dev.llmbench.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.SettingKeys;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.Parameter;
import dev.llmbench.internal.spi.SweepSetup;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Drift in the registry: a sweep with {@link Drift} over deployments sends its prompts (or asks an eval's requests for
 * logprobs), compares each candidate with the reference, and its methods may take the load's {@link Drifts}.
 */
@API(status = INTERNAL)
public final class DriftRegistration implements Feature {

  @Override
  public String key() {
    return "drift";
  }

  /** After the eval, which brings the prompts when both are declared. */
  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return context.declares(Drift.class) ? Optional.of(new DriftInput(context)) : Optional.empty();
  }

  /** Right after the quality's, so that drift reads beside accuracy. */
  @Override
  public int sectionOrder() {
    return 410;
  }

  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    if (setup.kind() != SweepSetup.Kind.SWEEP) return List.of();
    Optional<DriftPlan> plan = DriftSettings.of(setup.context());
    if (plan.isEmpty()) return List.of();
    String method = setup.context().getRequiredTestMethod().getName();
    if (setup.deployments().size() < 2) {
      throw new IllegalArgumentException("@Drift on " + method + " compares deployments with a reference, and the sweep has "
          + (setup.deployments().isEmpty() ? "none" : "one, " + setup.deployments().get(0)) + ": declare two or more "
          + "@Deployment (or the setting llmbench.deployments), the reference first");
    }
    String reference = plan.get().reference();
    if (!reference.isBlank() && !setup.deployments().contains(reference)) {
      throw new IllegalArgumentException("@Drift(reference = \"" + reference + "\") on " + method + " names no deployment of "
          + "the sweep: choose one of " + setup.deployments() + ", or leave it empty for the first");
    }
    if (!setup.levels().isEmpty() && !setup.levels().get(0).workload().prompts().keepsReplies()) {
      throw new IllegalArgumentException("@Drift on " + method + " compares replies whole, and this sweep's prompts keep only "
          + "an excerpt of each: let @Drift bring the prompts, or put it beside @QualityEval");
    }
    Path folder = Settings.of(setup.context()).get(SettingKeys.REPORT_DIR).value().resolve(setup.sweep().id());
    return List.of(new DriftFeature(plan.get(), setup.deployments(), folder));
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(new Parameter(Drifts.class, (name, level, afterSweep) -> {
      throw new IllegalStateException(name + " measures no drift: Drifts needs @Drift on the sweep");
    }));
  }
}
