package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The workload shapes of this package, as the feature registry finds them: the shared-prefix prompts
 * ({@link SharedPrefix}) or, beside another source's prompts, their alignment to exact lengths
 * ({@link ExactInputTokens}); the shared-prefix workload refuses the alignment itself.
 */
@API(status = INTERNAL)
public final class WorkloadFeature implements Feature {

  @Override
  public String key() {
    return "workload";
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    if (context.declares(SharedPrefix.class)) return Optional.of(new SharedPrefixInput(context));
    if (context.declares(ExactInputTokens.class)) return Optional.of(new ExactTokensInput(context));
    return Optional.empty();
  }
}
