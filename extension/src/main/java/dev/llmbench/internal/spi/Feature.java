package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A feature of LLMBench (baseline, capacity, deployments, quality, sessions, trace, ...), as the machinery finds it:
 * one implementation per feature package, listed in {@code META-INF/services/dev.llmbench.internal.spi.Feature}, the
 * one place a feature is registered (as AIPerf registers its loaders). Everything a feature adds to a run reaches the
 * runner, the planner, the JUnit extensions, the reports and the shard merge through the typed seams of this
 * interface, each a default method that contributes nothing; none of them names a feature (an ArchUnit rule).
 */
@API(status = INTERNAL)
public interface Feature {

  /** Short and stable: the feature's field in the JSON documents and the prefix of its files. */
  String key();

  /**
   * Where a sweep's input comes from when {@code context}'s method declares this feature's input (a trace, a dataset,
   * sessions, ...): found before anything is read, checked and read when the sweep is planned.
   */
  default Optional<WorkloadSource> workload(PlanContext context) {
    return Optional.empty();
  }
}
