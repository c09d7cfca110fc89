package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/**
 * Behind {@link ConcurrencySweep} and {@link RateSweep}: plans the sweep's levels (validating everything
 * first) and runs each as one test invocation. The sweep is summarised when its last level ends, or, when
 * only some levels ran, when the sweep's context closes.
 */
@API(status = INTERNAL)
public final class SweepExtension implements TestTemplateInvocationContextProvider {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SweepExtension.class);

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(SweepPlanner::isSweep).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    SweepPlanner.SweepPlan plan = SweepPlanner.plan(context);
    SweepRun sweep = new SweepRun(context.getRequiredTestClass(), context.getRequiredTestMethod().getName(),
        RunState.of(context).listener());
    context.getStore(NAMESPACE).put(SweepRun.class, (AutoCloseable) sweep::finish);
    List<LevelPlan> levels = plan.levels();
    List<Method> after = AfterSweepExtension.of(context.getRequiredTestClass(), context.getRequiredTestMethod());
    return Stream.concat(IntStream.range(0, levels.size()).mapToObj(i -> invocation(sweep, plan, levels.get(i), i + 1,
        levels.size())), after.stream().map(m -> afterSweep(sweep, m)));
  }

  /** One more invocation per {@code @AfterSweep} method: it runs after every level, and shows as a test of its own. */
  private static TestTemplateInvocationContext afterSweep(SweepRun sweep, Method method) {
    return new TestTemplateInvocationContext() {
      @Override
      public String getDisplayName(int invocationIndex) {
        return method.getName() + " (after the sweep)";
      }

      @Override
      public List<Extension> getAdditionalExtensions() {
        return List.of(new AfterSweepExtension(sweep, method));
      }
    };
  }

  private static TestTemplateInvocationContext invocation(SweepRun sweep, SweepPlanner.SweepPlan plan, LevelPlan level,
      int index, int total) {
    return new TestTemplateInvocationContext() {
      @Override
      public String getDisplayName(int invocationIndex) {
        return level.label();
      }

      @Override
      public List<Extension> getAdditionalExtensions() {
        return List.of(new SweepLevelExtension(sweep, level, index, total, plan.slo(), plan.percentiles(),
            plan.deployment()));
      }
    };
  }
}
