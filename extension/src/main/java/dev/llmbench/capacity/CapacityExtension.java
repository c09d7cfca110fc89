package dev.llmbench.capacity;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.compare.SloCheck;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.junit.ConfigurationErrors;
import dev.llmbench.internal.junit.InjectingResolver;
import dev.llmbench.internal.junit.LevelMeasurement;
import dev.llmbench.internal.junit.ProbeInvocation;
import dev.llmbench.internal.junit.Lookahead;
import dev.llmbench.internal.junit.RunState;
import dev.llmbench.internal.junit.SweepExtension;
import dev.llmbench.internal.junit.SweepPlanner;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.spi.SweepSetup;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Behind {@link CapacitySearch}: a test template whose invocations are made one at a time, each after
 * the last has run, as junit-pioneer's {@code @RetryingTest} makes its retries: which load a probe tries
 * depends on whether the previous probe met the SLO. Probes are measured and reported like sweep levels,
 * without running the method; the search ends with one more invocation, {@code capacity: C=12}, that
 * runs the method with the {@link Capacity} found. With several deployments, each is searched in turn.
 */
final class CapacityExtension implements TestTemplateInvocationContextProvider {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(CapacityExtension.class);

  /** One deployment's search (or the endpoint's, without deployments) and the probes it measured. */
  private static final class Target {
    final Optional<DeploymentSpec> deployment;
    final Search search;
    final List<MeasuredLevel> probes = new ArrayList<>();

    Target(Optional<DeploymentSpec> deployment, Search search) {
      this.deployment = deployment;
      this.search = search;
    }

    Capacity capacity(SweepPlanner.Probes plan) {
      return search.capacity(plan.slo(), probes, deployment.map(DeploymentSpec::name));
    }
  }

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, CapacitySearch.class)).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    String where = ConfigurationErrors.where(method);
    CapacitySearch annotation = AnnotationSupport.findAnnotation(method, CapacitySearch.class).orElseThrow();
    SweepPlanner.Probes plan;
    List<Target> targets = new ArrayList<>();
    List<DeploymentSpec> deployments;
    try {
      if (RunState.of(context).shards().shard().isSharded()) {
        throw new IllegalArgumentException("a @CapacitySearch picks each probe by whether the last met the SLO, which no "
            + "shard sees whole; run capacity searches unsharded (without llmbench.shard.count)");
      }
      plan = SweepPlanner.probes(context, annotation.concurrency().length > 0, annotation.burstiness(),
          annotation.maxConcurrency());
      deployments = SweepExtension.deployments(context);
      if (deployments.isEmpty()) targets.add(new Target(Optional.empty(), search(annotation)));
      for (DeploymentSpec d : deployments) targets.add(new Target(Optional.of(d), search(annotation)));
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(where, e);
    }
    SweepRun sweep = new SweepRun(context.getRequiredTestClass(), method.getName(), RunState.of(context).listener());
    // Searches on several deployments are compared as a sweep over them is (the registry lists the deployments'
    // comparison before the capacity: conclusions first). Every probe sends the same workload: the first says which
    // workload features (sessions, replies) the reports get.
    Search first = targets.get(0).search;
    LevelPlan firstProbe;
    try {
      firstProbe = plan.at(first.low(), first.whole());
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(where, e);
    }
    SweepExtension.addFeatures(new SweepSetup(context, sweep, SweepSetup.Kind.SEARCH, List.of(firstProbe),
        deployments.stream().map(DeploymentSpec::name).toList(), RunState.of(context).shards().shard().isSharded()));
    context.getStore(NAMESPACE).put(SweepRun.class, (AutoCloseable) sweep::finish);
    Iterator<TestTemplateInvocationContext> invocations = new Invocations(sweep, plan, targets);
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(invocations, Spliterator.ORDERED), false);
  }

  /** The annotation's range and step, checked. */
  static Search search(CapacitySearch a) {
    boolean closed = a.concurrency().length > 0;
    if (closed == (a.rate().length > 0)) {
      throw new IllegalArgumentException("@CapacitySearch needs either concurrency = {low, high} or rate = {low, high}");
    }
    double low = closed ? a.concurrency()[0] : a.rate()[0];
    int n = closed ? a.concurrency().length : a.rate().length;
    if (n != 2) throw new IllegalArgumentException("@CapacitySearch takes a range of two values, {low, high}; it has " + n);
    double high = closed ? a.concurrency()[1] : a.rate()[1];
    if (!(low > 0 && high > low) || Double.isInfinite(high)) {
      throw new IllegalArgumentException("@CapacitySearch range {" + Formats.number(low) + ", " + Formats.number(high)
          + "} needs 0 < low < high");
    }
    if (a.step() < 0) throw new IllegalArgumentException("@CapacitySearch step must be positive, or 0 for automatic");
    double step = a.step() > 0 ? a.step() : closed ? 1 : (high - low) / 16;
    if (closed && step != Math.rint(step)) {
      throw new IllegalArgumentException("@CapacitySearch step over concurrency must be a whole number, was " + a.step());
    }
    return new Search(low, high, step, closed);
  }

  /** Makes each invocation when JUnit asks for it, which is after the previous one has run. */
  private static final class Invocations extends Lookahead<TestTemplateInvocationContext> {
    private final SweepRun sweep;
    private final SweepPlanner.Probes plan;
    private final List<Target> targets;
    private int current;
    private int probe;
    private boolean concluded;

    Invocations(SweepRun sweep, SweepPlanner.Probes plan, List<Target> targets) {
      this.sweep = sweep;
      this.plan = plan;
      this.targets = targets;
    }

    @Override
    protected TestTemplateInvocationContext advance() {
      while (current < targets.size()) {
        Target target = targets.get(current);
        if (!concluded) {
          OptionalDouble load = target.search.next();
          if (load.isPresent()) return probe(target, load.getAsDouble(), ++probe);
          concluded = true;
          Capacity capacity = target.capacity(plan);
          CapacityFeature.of(sweep).orElseThrow().add(capacity);
          return conclusion(target, capacity, current == targets.size() - 1);
        }
        current++;
        concluded = false;
        probe = 0;
      }
      return null;
    }

    private TestTemplateInvocationContext probe(Target target, double load, int number) {
      LevelPlan level = plan.at(load, target.search.whole());
      LevelPlan named = target.deployment.map(d -> SweepExtension.relabelled(level, d)).orElse(level);
      return invocation("probe " + number + ": " + named.label(), new Probe(sweep, plan, target, named, load, number));
    }

    private TestTemplateInvocationContext conclusion(Target target, Capacity capacity, boolean last) {
      String name = "capacity" + target.deployment.map(d -> ByDeployment.SEPARATOR + d.name()).orElse("") + ": " + answer(capacity);
      return invocation(name, new Conclusion(sweep, capacity, last));
    }

    private static String answer(Capacity c) {
      String unit = c.closedLoop() ? "" : " req/s";
      String low = (c.closedLoop() ? "C=" : "") + Formats.rate(c.low()) + unit;
      String high = (c.closedLoop() ? "C=" : "") + Formats.rate(c.high()) + unit;
      return switch (c.outcome()) {
        case FOUND -> (c.closedLoop() ? "C=" : "") + Formats.rate(c.load()) + unit;
        case HOLDS_AT_HIGH -> "at least " + high;
        case FAILS_AT_LOW -> "below " + low;
        case SEARCHING, STOPPED -> "unknown";
      };
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

  /** One probe: measured and reported as a sweep level, then recorded in the search; the method does not run. */
  private record Probe(SweepRun sweep, SweepPlanner.Probes plan, Target target, LevelPlan level, double load, int number)
      implements ProbeInvocation {

    @Override
    public MeasuredLevel measure(ExtensionContext context) {
      // The suite's facts, with the deployment's own price: what the probe's tokens cost.
      MeasuredLevel result = LevelMeasurement.measure(context, new LevelContext(sweep, level, plan.slo(), plan.percentiles(),
          SweepExtension.facts(SweepPlanner.facts(context), target.deployment)), number, number, target.deployment);
      target.probes.add(result);
      target.search.record(load, SloCheck.meets(result, plan.slo()));
      return result;
    }

    @Override
    public Class<?> answerType() {
      return Capacity.class;
    }

    @Override
    public Object answer() {
      return target.capacity(plan);
    }

    @Override
    public String toString() {
      return level.label();
    }
  }

  /** The search's end: runs the method with what it found, then summarises the sweep of probes. */
  private record Conclusion(SweepRun sweep, Capacity capacity, boolean last)
      implements BeforeTestExecutionCallback, InjectingResolver, AfterTestExecutionCallback {

    @Override
    public void beforeTestExecution(ExtensionContext context) {
      if (capacity.outcome() == Capacity.Outcome.STOPPED) {
        throw new IllegalStateException(capacity.statement() + "; see the probe that failed above");
      }
    }

    @Override
    public List<Class<?>> injects() {
      return List.of(Capacity.class, SweepLevelResult.class);
    }

    /** The capacity, or the level at it. */
    @Override
    public Object resolve(Class<?> type, ExtensionContext context) {
      if (type == Capacity.class) return capacity;
      return capacity.atCapacity().orElseThrow(() -> new IllegalStateException("no probe met the SLO, so there is no level "
          + "at capacity to inject: " + capacity.statement()));
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
      context.getExecutionException().ifPresent(e -> sweep.failed("capacity", e));
      if (last) sweep.finish();
    }

    @Override
    public String toString() {
      return "capacity";
    }
  }
}
