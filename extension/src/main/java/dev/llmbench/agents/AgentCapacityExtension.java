package dev.llmbench.agents;

import dev.llmbench.Workload;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.junit.Annotations;
import dev.llmbench.internal.junit.ConfigurationErrors;
import dev.llmbench.internal.junit.InjectingResolver;
import dev.llmbench.internal.junit.LevelMeasurement;
import dev.llmbench.internal.junit.ProbeInvocation;
import dev.llmbench.internal.junit.Lookahead;
import dev.llmbench.internal.junit.RunState;
import dev.llmbench.internal.junit.SweepExtension;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.spi.SweepSetup;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.ServiceLevels;
import java.lang.reflect.Method;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Behind {@link AgentCapacity}: a test template whose invocations are made one at a time, each once the one before has
 * run (which probe comes next depends on how the last held each tier). A probe is measured and reported as a sweep's
 * level, and the method does not run; the last invocation, {@code capacity: ...}, runs it with what was found.
 */
final class AgentCapacityExtension implements TestTemplateInvocationContextProvider {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(AgentCapacityExtension.class);
  /** Percentiles every probe reports: those the tiers judge (50 to 99) among them. */
  private static final List<Double> PERCENTILES = List.of(50.0, 90.0, 95.0, 99.0);

  @Workload
  private static final class Defaults {}

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, AgentCapacity.class)).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    String where = ConfigurationErrors.where(method);
    AgentCapacity annotation = AnnotationSupport.findAnnotation(method, AgentCapacity.class).orElseThrow();
    TierSearch search;
    AgentWorkload agents;
    Workload workload = Annotations.nearest(context, Workload.class).orElseGet(() -> Defaults.class.getAnnotation(Workload.class));
    try {
      if (RunState.of(context).shards().shard().isSharded()) {
        throw new IllegalArgumentException("an @AgentCapacity picks each probe by how the last held its tiers, which no "
            + "shard sees whole; run it unsharded (without llmbench.shard.count)");
      }
      search = TierSearch.of(annotation);
      Optional<AgentTrace> trace = Annotations.nearest(context, AgentTrace.class);
      Optional<SyntheticAgents> synthetic = Annotations.nearest(context, SyntheticAgents.class);
      if (trace.isPresent() == synthetic.isPresent()) {
        throw new IllegalArgumentException("@AgentCapacity searches over agents: declare one of @AgentTrace or "
            + "@SyntheticAgents beside it");
      }
      agents = trace.isPresent() ? AgentsInput.of(trace.get(), workload) : AgentsInput.synthetic(synthetic.get(), workload);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(where, e);
    }
    SweepRun sweep = new SweepRun(context.getRequiredTestClass(), method.getName(), RunState.of(context).listener());
    SweepExtension.addFeatures(new SweepSetup(context, sweep, SweepSetup.Kind.SEARCH,
        List.of(probe(agents, workload, annotation.agents()[0])), List.of(), false));
    context.getStore(NAMESPACE).put(SweepRun.class, (AutoCloseable) sweep::finish);
    Iterator<TestTemplateInvocationContext> invocations = new Invocations(sweep, search, agents, workload);
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(invocations, Spliterator.ORDERED), false);
  }

  /**
   * The probe of {@code n} agents in flight: whole agents, 2 per slot (at least 4, a trace's every session at least
   * once) unless the annotation counts them, after a warm-up of one first turn per slot (a sweep's automatic warm-up: the level's own batch).
   */
  static LevelPlan probe(AgentWorkload agents, Workload w, int n) {
    LoadShape load = new LoadShape.ClosedLoop(n);
    WorkloadPlan plan = new WorkloadPlan(w.maxTokens()[0], 0, w.ignoreEos(), w.temperature() < 0 ? null : w.temperature(),
        PromptSource.rows(agents.name(), agents), w.prefixCache());
    return new LevelPlan("agents=" + n, load, new StopRule.Count(agents.requestsOfFirst(agents.agentsPerProbe(n))), plan,
        n, w.seed());
  }

  /** Makes each invocation when JUnit asks for it, which is after the one before has run. */
  private static final class Invocations extends Lookahead<TestTemplateInvocationContext> {
    private final SweepRun sweep;
    private final TierSearch search;
    private final AgentWorkload agents;
    private final Workload workload;
    private int probes;
    private boolean concluded;

    Invocations(SweepRun sweep, TierSearch search, AgentWorkload agents, Workload workload) {
      this.sweep = sweep;
      this.search = search;
      this.agents = agents;
      this.workload = workload;
    }

    @Override
    protected TestTemplateInvocationContext advance() {
      if (concluded) return null;
      OptionalInt n = search.next();
      if (n.isPresent()) {
        int number = ++probes;
        LevelPlan level = probe(agents, workload, n.getAsInt());
        return invocation("probe " + number + ": " + level.label(), new Probe(sweep, search, level, n.getAsInt(), number));
      }
      concluded = true;
      AgentCapacities found = search.found();
      AgentsFeature.of(sweep).ifPresent(f -> f.found(found));
      return invocation("capacity: " + String.join("; ", found.tiers().stream().map(AgentCapacities.Tier::statement).toList()),
          new Conclusion(sweep, found));
    }

    private static TestTemplateInvocationContext invocation(String name, Extension extension) {
      return new TestTemplateInvocationContext() {
        @Override
        public String getDisplayName(int invocationIndex) {
          return name;
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
          return List.of(extension);
        }
      };
    }
  }

  /** One probe: measured and reported as a sweep's level, then judged against every tier; the method does not run. */
  private record Probe(SweepRun sweep, TierSearch search, LevelPlan level, int agents, int number) implements ProbeInvocation {

    @Override
    public MeasuredLevel measure(ExtensionContext context) {
      MeasuredLevel result = LevelMeasurement.measure(context, new LevelContext(sweep, level, ServiceLevels.none(),
          PERCENTILES, Optional.empty()), number, number, Optional.empty());
      search.record(agents, result);
      return result;
    }

    @Override
    public Class<?> answerType() {
      return AgentCapacities.class;
    }

    @Override
    public Object answer() {
      return search.found();
    }
  }

  /** The search's end: runs the method with what it found, then ends the sweep of probes (its reports). */
  private record Conclusion(SweepRun sweep, AgentCapacities found)
      implements InjectingResolver, AfterTestExecutionCallback {

    @Override
    public List<Class<?>> injects() {
      return List.of(AgentCapacities.class);
    }

    @Override
    public Object resolve(Class<?> type, ExtensionContext context) {
      return found;
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
      context.getExecutionException().ifPresent(e -> sweep.failed("agent capacity", e));
      sweep.finish();
    }
  }
}
