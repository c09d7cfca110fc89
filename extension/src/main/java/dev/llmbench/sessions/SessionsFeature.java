package dev.llmbench.sessions;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import java.util.Optional;
import org.apiguardian.api.API;

/** Multi-turn sessions ({@link Sessions}), as the feature registry finds them. */
@API(status = INTERNAL)
public final class SessionsFeature implements Feature {

  @Override
  public String key() {
    return "sessions";
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return context.declares(Sessions.class) ? Optional.of(new SessionsInput(context)) : Optional.empty();
  }
}
