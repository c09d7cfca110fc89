package dev.llmbench.sessions;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.SweepSetup;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** Multi-turn sessions in the registry: a sweep whose levels send {@link Sessions} reports their figures by turn. */
@API(status = INTERNAL)
public final class SessionsRegistration implements Feature {

  @Override
  public String key() {
    return "sessions";
  }

  /** After the replies, before the trace, as before the registry. */
  @Override
  public int sectionOrder() {
    return 600;
  }

  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    return SessionSettings.feature(setup.context(), setup.levels(), setup.sharded()).stream().toList();
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return context.declares(Sessions.class) ? Optional.of(new SessionsInput(context)) : Optional.empty();
  }
}
