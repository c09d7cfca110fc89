package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import java.util.Optional;
import org.apiguardian.api.API;

/** Quality evals ({@link QualityEval}), as the feature registry finds them. */
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
}
