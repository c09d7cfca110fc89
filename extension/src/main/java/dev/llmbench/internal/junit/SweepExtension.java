package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
import dev.llmbench.internal.compare.ByDeployment;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.core.EndpointSpec;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.SweepSetup;
import dev.llmbench.server.DeploymentDescription;
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
    GivenSettings.check(context); // an unknown key first: the planner would read the sweep without it
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
    if (launchesCandidates(context, deployments)) {
      // Candidates the suite launches run one at a time, each at every level before the next starts: candidate-major.
      for (DeploymentSpec d : deployments) {
        for (LevelPlan level : plan.levels()) invocations.add(new Invocation(relabelled(level, d), Optional.of(d)));
      }
    } else {
      for (LevelPlan level : plan.levels()) {
        if (deployments.isEmpty()) invocations.add(new Invocation(level, Optional.empty()));
        for (DeploymentSpec d : deployments) invocations.add(new Invocation(relabelled(level, d), Optional.of(d)));
      }
    }
    List<Method> after = AfterSweepExtension.of(context.getRequiredTestClass(), context.getRequiredTestMethod());
    // The sweep is reported after its @AfterSweep checks, so that its verdict says whether they passed.
    return Stream.concat(IntStream.range(0, invocations.size()).mapToObj(i -> invocation(sweep, plan, invocations.get(i),
        i + 1, invocations.size(), after.isEmpty())), IntStream.range(0, after.size())
        .mapToObj(i -> afterSweep(sweep, after.get(i), i == after.size() - 1)));
  }

  /** Whether any of the deployments is a candidate the suite launches (a process, a container) rather than a URL. */
  static boolean launchesCandidates(ExtensionContext context, List<DeploymentSpec> deployments) {
    List<String> launched = new ArrayList<>();
    java.util.Map<String, java.net.URI> fixed = new java.util.LinkedHashMap<>();
    for (DeploymentSpec d : deployments) {
      EndpointSpec spec = EndpointSettings.of(context, d);
      if (spec.server().isPresent()) {
        launched.add(d.name());
        if (spec.baseUrl() != null) fixed.put(d.name(), spec.baseUrl());
      }
    }
    // A deployment by URL where the candidates are launched: they would find it answering instead of themselves.
    for (DeploymentSpec d : deployments) {
      if (d.baseUrl().isEmpty()) continue;
      java.net.URI url = d.baseUrl().get();
      List<String> same = fixed.entrySet().stream().filter(e -> e.getValue().getHost().equals(url.getHost())
          && Candidates.port(e.getValue()) == Candidates.port(url)).map(java.util.Map.Entry::getKey).toList();
      if (!same.isEmpty()) {
        throw ConfigurationErrors.sweep(ConfigurationErrors.where(context.getRequiredTestMethod()), new IllegalArgumentException(
            "deployment '" + d.name() + "' (" + url + ") is on port " + Candidates.port(url) + " of " + url.getHost()
                + ", where the suite launches the candidates " + same + ": they would find '" + d.name() + "' answering "
                + "there instead of themselves, or fail to bind it; launch the candidates on another port, or move '"
                + d.name() + "'"));
      }
    }
    return !launched.isEmpty();
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
    if (setup.deployments().size() > 1) setup.sweep().compares();
    try {
      Features.addTo(setup);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(ConfigurationErrors.where(setup.context().getRequiredTestMethod()), e);
    }
  }

  /** The sweep's facts with a deployment's own GPU count and price, which win over the sweep's. */
  public static Optional<DeploymentDescription> facts(Optional<DeploymentDescription> sweep, Optional<DeploymentSpec> deployment) {
    if (deployment.isEmpty() || (deployment.get().gpuCount() == 0 && deployment.get().gpuHourPrice() == 0)) return sweep;
    return Optional.of(sweep.orElse(DeploymentDescription.NONE).withCost(deployment.get().gpuCount(),
        deployment.get().gpuHourPrice()));
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
            facts(plan.facts(), invocation.deployment())), index, total, invocation.deployment(), lastEndsSweep));
      }
    };
  }
}
