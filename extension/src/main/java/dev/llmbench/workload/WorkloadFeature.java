package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The workload shapes of this package, as the feature registry finds them: the shared-prefix prompts
 * ({@link SharedPrefix}), their alignment to exact lengths ({@link ExactInputTokens}), and what every request adds
 * ({@link ToolCalls}, {@link StructuredOutput}, {@link Embeddings}).
 */
@API(status = INTERNAL)
public final class WorkloadFeature implements Feature {

  @Override
  public String key() {
    return "workload";
  }

  /** Every sweep's: a dataset row's own tools and schemas are checked even when none of these is declared. */
  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return Optional.of(new WorkloadInput(context));
  }
}
