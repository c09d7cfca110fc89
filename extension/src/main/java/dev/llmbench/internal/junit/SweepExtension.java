package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.SweepSetup;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/**
 * Behind {@link ConcurrencySweep} and {@link RateSweep}: plans the sweep's levels (validating everything
 * first) and runs each as one test invocation, or one per deployment when the sweep compares several,
 * every deployment at a load before the next load. The sweep is summarised when its last level ends, or,
 * when only some levels ran, when the sweep's context closes.
 */
@API(status = INTERNAL)
public final class SweepExtension implements TestTemplateInvocationContextProvider {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SweepExtension.class);

  /** One invocation: a level, measured on one deployment or on the test's endpoint. */
  private record Invocation(LevelPlan level, Optional<DeploymentSpec> deployment) {}

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(SweepPlanner::isSweep).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    SweepPlanner.SweepPlan plan = SweepPlanner.plan(context);
    List<DeploymentSpec> deployments = deployments(context);
    RunState run = RunState.of(context);
    try {
      run.shards().check(plan.levels());
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(ConfigurationErrors.where(context.getRequiredTestMethod()), e);
    }
    SweepRun sweep = new SweepRun(context.getRequiredTestClass(), context.getRequiredTestMethod().getName(), run.listener());
    addFeatures(new SweepSetup(context, sweep, SweepSetup.Kind.SWEEP, plan.levels(),
        deployments.stream().map(DeploymentSpec::name).toList(), run.shards().shard().isSharded()));
    context.getStore(NAMESPACE).put(SweepRun.class, (AutoCloseable) sweep::finish);
    List<Invocation> invocations = new ArrayList<>();
    for (LevelPlan level : plan.levels()) {
      if (deployments.isEmpty()) invocations.add(new Invocation(level, Optional.empty()));
      for (DeploymentSpec d : deployments) invocations.add(new Invocation(relabelled(level, d), Optional.of(d)));
    }
    List<Method> after = AfterSweepExtension.of(context.getRequiredTestClass(), context.getRequiredTestMethod());
    // The sweep is reported after its @AfterSweep checks, so that its verdict says whether they passed.
    return Stream.concat(IntStream.range(0, invocations.size()).mapToObj(i -> invocation(sweep, plan, invocations.get(i),
        i + 1, invocations.size(), after.isEmpty())), IntStream.range(0, after.size())
        .mapToObj(i -> afterSweep(sweep, after.get(i), i == after.size() - 1)));
  }

  /** One more invocation per {@code @AfterSweep} method: it runs after every level, and shows as a test of its own. */
  private static TestTemplateInvocationContext afterSweep(SweepRun sweep, Method method, boolean last) {
    return new TestTemplateInvocationContext() {
      @Override
      public String getDisplayName(int invocationIndex) {
        return method.getName() + " (after the sweep)";
      }

      @Override
      public List<Extension> getAdditionalExtensions() {
        return List.of(new AfterSweepExtension(sweep, method, last));
      }
    };
  }

  /**
   * The deployments each level is measured on, as the registry's features name them; empty for the test's endpoint.
   *
   * @throws org.junit.jupiter.api.extension.ExtensionConfigurationException naming the method and the fix
   */
  public static List<DeploymentSpec> deployments(ExtensionContext context) {
    try {
      return Features.deployments(context);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(ConfigurationErrors.where(context.getRequiredTestMethod()), e);
    }
  }

  /**
   * Adds to the sweep what every registered feature adds to it (its baseline, its deployments' comparison, its
   * sessions' figures), before its first level: the one place a sweep or a capacity search gets its features.
   *
   * @throws org.junit.jupiter.api.extension.ExtensionConfigurationException naming the method and the fix
   */
  public static void addFeatures(SweepSetup setup) {
    if (setup.kind() == SweepSetup.Kind.SEARCH) setup.sweep().searches();
    try {
      Features.addTo(setup);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(ConfigurationErrors.where(setup.context().getRequiredTestMethod()), e);
    }
  }

  /** {@code C=8 · int4}: the deployment's level is its own test, report row and file. */
  public static LevelPlan relabelled(LevelPlan level, DeploymentSpec deployment) {
    return level.withLabel(level.label() + ByDeployment.SEPARATOR + deployment.name());
  }

  private static TestTemplateInvocationContext invocation(SweepRun sweep, SweepPlanner.SweepPlan plan, Invocation invocation,
      int index, int total, boolean lastEndsSweep) {
    return new TestTemplateInvocationContext() {
      @Override
      public String getDisplayName(int invocationIndex) {
        return invocation.level().label();
      }

      @Override
      public List<Extension> getAdditionalExtensions() {
        return List.of(new SweepLevelExtension(new LevelContext(sweep, invocation.level(), plan.slo(), plan.percentiles(),
            plan.facts()), index, total, invocation.deployment(), lastEndsSweep));
      }
    };
  }
}
