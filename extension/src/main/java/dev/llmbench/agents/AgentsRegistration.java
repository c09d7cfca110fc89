package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.junit.ConfigurationErrors;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.SweepSetup;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Agents in the registry: a sweep whose levels send an {@link AgentTrace}'s or {@link SyntheticAgents}' agents reports
 * their figures per agent.
 */
@API(status = INTERNAL)
public final class AgentsRegistration implements Feature {

  @Override
  public String key() {
    return "agents";
  }

  /** After the sessions' figures by turn. */
  @Override
  public int sectionOrder() {
    return 610;
  }

  /** An {@link AgentCapacity} search runs its own probes. */
  @Override
  public boolean runsLevels(java.lang.reflect.Method method) {
    return org.junit.platform.commons.support.AnnotationSupport.isAnnotated(method, AgentCapacity.class);
  }

  /**
   * The agents of the trace {@code file} as the runner's prompts, read and checked whole as {@link AgentTrace} reads it;
   * {@code sessions()} of the result gives the agents' sessions. The seam the benchmarks module's agents run
   * (scripts/agents-bench.sh) is given, since the workload itself is the package's own.
   *
   * @param file          the trace
   * @param format        what it holds
   * @param toolTimeScale the factor of every tool time
   * @param maxTokens     the {@code max_tokens} of a turn that gives none
   * @return the prompts, whose {@code sessions()} are the agents (agent {@code i} the trace's top-level session
   *         {@code i}, wrapping round)
   */
  public static PromptSource prompts(Path file, AgentTrace.Format format, double toolTimeScale, int maxTokens) {
    AgentWorkload agents = new AgentWorkload(AgentTraceReader.read(file, format, 0), toolTimeScale, 0, maxTokens, null);
    return PromptSource.rows(agents.name(), agents);
  }

  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    boolean declared = context.declares(AgentTrace.class) || context.declares(SyntheticAgents.class)
        || context.onMethod(AgentReplay.class).isPresent();
    return declared ? Optional.of(new AgentsInput(context)) : Optional.empty();
  }

  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    Optional<AgentWorkload> agents = setup.levels().stream().map(l -> l.workload().prompts().sessions())
        .flatMap(Optional::stream).filter(AgentWorkload.class::isInstance).map(AgentWorkload.class::cast).findFirst();
    if (agents.isEmpty()) return List.of();
    if (setup.sharded()) {
      throw ConfigurationErrors.sweep(ConfigurationErrors.where(setup.context().getRequiredTestMethod()),
          new IllegalArgumentException("agents' levels are not split between shards (an agent's turns follow one "
              + "another): run this sweep unsharded, e.g. in a suite of its own without llmbench.shard.count"));
    }
    return List.of(new AgentsFeature(agents.get()));
  }
}
