package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.core.EndpointRoute;
import dev.llmbench.internal.core.LevelRecorder;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.ReplyJudge;
import dev.llmbench.internal.core.ServerStart;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

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

  /**
   * The feature's own settings ({@code llmbench.<key>.*}), declared in its package, in the order of the settings table
   * (docs/settings.md), where they follow the machinery's ({@code SettingKeys}) in the registry's order.
   */
  default List<Setting<?>> settings() {
    return List.of();
  }

  /**
   * Whether {@code method} is a benchmark this feature runs, its levels sending load as a sweep's do (a capacity
   * search): the endpoint's readiness wait probes the route it sends to.
   */
  default boolean runsLevels(Method method) {
    return false;
  }

  /**
   * The route a benchmark method of {@code testClass} sends its load to, when this feature's request shape decides
   * it ({@code /v1/embeddings}); empty to leave it to the others (generation when none decides).
   */
  default Optional<EndpointRoute> route(Method method, Class<?> testClass) {
    return Optional.empty();
  }

  /**
   * The server {@code context}'s test class starts itself (a process, a container), which its endpoint starts when
   * first asked to be ready, then waits for, watches and stops; empty for one that runs elsewhere (or the embedded
   * engine). The first feature that gives one is asked.
   *
   * @throws IllegalArgumentException naming the setting or annotation at fault, and the fix
   */
  default Optional<ServerStart> server(ExtensionContext context) {
    return Optional.empty();
  }

  /**
   * The server a launched candidate starts ({@code candidate} has no URL and no embedded profile): this feature's
   * {@link #server(ExtensionContext)} with the candidate's serve parameters applied; empty when this feature starts
   * none. Equal for equal settings, so a candidate's endpoint is its own.
   *
   * @throws IllegalArgumentException naming the candidate, the parameter at fault, and the fix
   */
  default Optional<ServerStart> server(ExtensionContext context, DeploymentSpec candidate) {
    return Optional.empty();
  }

  /**
   * The deployments each level of the sweep (or each capacity search) is measured on, one after another; empty for
   * the test's one endpoint. The first feature that names any is asked.
   *
   * @throws IllegalArgumentException naming the deployment and the fix
   */
  default List<DeploymentSpec> deployments(ExtensionContext context) {
    return List.of();
  }

  /**
   * Where the feature's sections sit among the others' in every report of a sweep, lowest first (as JUnit's
   * {@code @Order} places extensions): the registry's order is the planner's (which of two workload sources speaks
   * first), the reports' is this. Ties keep the registry's order.
   */
  default int sectionOrder() {
    return 0;
  }

  /**
   * What the feature adds to a sweep about to run, in the order the reports show them; nothing when the sweep does
   * not use it. Asked once per sweep, before its first level, in {@link #sectionOrder()}.
   *
   * @throws IllegalArgumentException naming the setting or annotation at fault, and the fix
   */
  default List<SweepFeature> sweep(SweepSetup setup) {
    return List.of();
  }

  /**
   * What the feature adds to a sweep rebuilt from its levels' files (a merge of shards): what the levels alone tell,
   * as the run's own sweep told it.
   */
  default List<SweepFeature> merged(List<MeasuredLevel> levels) {
    return List.of();
  }

  /**
   * The types a sweep's level methods and {@code @AfterSweep} methods may take from this feature; a
   * {@link SweepFeature#parameters} of the sweep gives the value, {@link Parameter#absent} the value or the error
   * when the sweep has none.
   */
  default List<Parameter> parameters() {
    return List.of();
  }

  /**
   * What the feature records beside each level of {@code context}'s method (the GPUs' telemetry); asked as each level
   * is about to be measured. Empty when its settings ask for none.
   *
   * @throws IllegalArgumentException naming the setting at fault
   */
  default List<LevelRecorder> recorders(ExtensionContext context) {
    return List.of();
  }

  /**
   * How the feature judges a level's replies (tool calls, JSON answers), a new judge for each level; empty when it
   * judges none. The first feature's judge is the level's.
   */
  default Optional<ReplyJudge> replyJudge() {
    return Optional.empty();
  }

  /** What the feature reads off any level (measured, merged or read back), shown by every report of a level. */
  default List<LevelReading> readings() {
    return List.of();
  }
}
