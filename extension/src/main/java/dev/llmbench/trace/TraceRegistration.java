package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import java.util.Optional;
import org.apiguardian.api.API;

/** Traces ({@link Trace}) and their timed replay ({@link TraceReplay}), as the feature registry finds them. */
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
}
