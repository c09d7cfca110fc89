package dev.llmbench.internal.junit;

import dev.llmbench.AfterSweep;
import dev.llmbench.EarlierLevels;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.SweepResult;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.PreviousLevels;
import dev.llmbench.internal.core.AnalysedSweep;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.spi.Features;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The last invocation of a sweep's template, for one {@link AfterSweep} method: it runs that method with
 * the sweep's {@link SweepResult} instead of the sweep method. The sweep method's own parameters are still
 * resolved (to the last level) so that JUnit can build the invocation it then skips.
 *
 * @param sweep  the sweep whose levels ran
 * @param method the {@code @AfterSweep} method
 * @param last   whether it is the sweep's last {@code @AfterSweep} method, which ends the sweep (its reports)
 */
record AfterSweepExtension(SweepRun sweep, Method method, boolean last)
    implements InjectingResolver, InvocationInterceptor, AfterTestExecutionCallback {

  /** The {@code @AfterSweep} methods of {@code sweepMethod}'s class that name it, validated. */
  static List<Method> of(Class<?> testClass, Method sweepMethod) {
    List<Method> sweeps = ReflectionSupport.findMethods(testClass, SweepPlanner::isSweep, HierarchyTraversalMode.TOP_DOWN);
    List<Method> mine = new ArrayList<>();
    for (Method after : AnnotationSupport.findAnnotatedMethods(testClass, AfterSweep.class, HierarchyTraversalMode.TOP_DOWN)) {
      String where = ConfigurationErrors.where(after);
      if (after.getParameterCount() != 1 || after.getParameterTypes()[0] != SweepResult.class) {
        throw ConfigurationErrors.afterSweep(where, "an @AfterSweep method takes exactly one parameter, the SweepResult: "
            + "void " + after.getName() + "(SweepResult sweep)");
      }
      String target = AnnotationSupport.findAnnotation(after, AfterSweep.class).orElseThrow().value().strip();
      List<String> names = sweeps.stream().map(Method::getName).toList();
      if (target.isEmpty()) {
        if (sweeps.size() != 1) {
          throw ConfigurationErrors.afterSweep(where, "@AfterSweep names no sweep and the class has " + sweeps.size() + " " + names
              + ": name one, e.g. @AfterSweep(\"" + (names.isEmpty() ? "throughput" : names.get(0)) + "\")");
        }
        target = names.get(0);
      } else if (!names.contains(target)) {
        throw ConfigurationErrors.afterSweep(where, "@AfterSweep(\"" + target + "\") names no sweep of this class; its sweeps are "
            + names);
      }
      if (target.equals(sweepMethod.getName())) mine.add(after);
    }
    return mine;
  }

  @Override
  public List<Class<?>> injects() {
    return SweepLevelExtension.parameterTypes();
  }

  /** What the last level's invocation received, for a call that is then skipped. */
  @Override
  public Object resolve(Class<?> type, ExtensionContext context) {
    List<MeasuredLevel> levels = sweep.levels();
    if (levels.isEmpty()) throw new IllegalStateException("no level of " + sweep.title() + " was measured: nothing to assert");
    MeasuredLevel last = levels.get(levels.size() - 1);
    if (type == SweepLevelResult.class || type == EarlierLevels.class) {
      return type == SweepLevelResult.class ? last : new PreviousLevels(last.label(), levels.subList(0, levels.size() - 1));
    }
    Object value = sweep.parameters(last).get(type);
    if (value != null) return value;
    return Features.parameter(type).orElseThrow().absent().value(sweep.title(), last.label(), true);
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext context) {
    invocation.skip();
    ReflectionSupport.invokeMethod(method, context.getRequiredTestInstance(), AnalysedSweep.of(sweep));
  }

  /** Its failure is part of the sweep's verdict; the last one reports the sweep, now that every check has run. */
  @Override
  public void afterTestExecution(ExtensionContext context) {
    try {
      context.getExecutionException().ifPresent(e -> sweep.failed(toString(), e));
    } finally {
      if (last) sweep.finish();
    }
  }

  @Override
  public String toString() {
    return method.getName() + " (after the sweep)";
  }
}
