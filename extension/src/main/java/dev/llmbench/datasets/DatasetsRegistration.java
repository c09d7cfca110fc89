package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import java.util.Optional;
import org.apiguardian.api.API;

/** Datasets of prompts ({@link Dataset}), as the feature registry finds them. */
@API(status = INTERNAL)
public final class DatasetsRegistration implements Feature {

  @Override
  public String key() {
    return "datasets";
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return context.declares(Dataset.class) ? Optional.of(new DatasetInput(context)) : Optional.empty();
  }
}
