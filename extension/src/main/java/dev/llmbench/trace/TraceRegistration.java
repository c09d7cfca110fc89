package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.SweepSetup;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** Trace replay in the registry: a sweep whose levels replay a {@link Trace} says how each kept its timestamps. */
@API(status = INTERNAL)
public final class TraceRegistration implements Feature {

  @Override
  public String key() {
    return "trace";
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return context.declares(Trace.class) || context.onMethod(TraceReplay.class).isPresent() ? Optional.of(new TraceInput(context))
        : Optional.empty();
  }

  /** Last of the sections, as before the registry. */
  @Override
  public int sectionOrder() {
    return 700;
  }

  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    boolean replays = setup.levels().stream()
        .anyMatch(l -> l.workload().prompts().rowSource().filter(TraceSource.class::isInstance).isPresent());
    return replays ? List.of(new TraceFeature()) : List.of();
  }
}
