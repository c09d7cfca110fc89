package dev.llmbench.internal.junit;

import dev.llmbench.EarlierLevels;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.PreviousLevels;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.spi.Parameter;
import java.util.List;
import java.util.stream.Stream;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One level of a sweep: measures it before the test method runs (reports write it at once, before any
 * assertion can fail), injects the result, fails it after the method with every violation the sweep's
 * features find in it (a regression against the baseline), and after the sweep's last level summarises the sweep.
 *
 * @param level      the level with its sweep's SLO, percentiles and deployment facts
 * @param index      1-based position among the sweep's {@code total} levels
 * @param deployment the deployment measured, when the sweep compares several
 * @param endsSweep  whether the last level ends the sweep; not when {@code @AfterSweep} methods follow, which end it
 */
record SweepLevelExtension(LevelContext level, int index, int total, Optional<DeploymentSpec> deployment, boolean endsSweep)
    implements BeforeTestExecutionCallback, InjectingResolver, AfterTestExecutionCallback {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SweepLevelExtension.class);

  private SweepRun sweep() {
    return level.sweep();
  }

  private LevelPlan plan() {
    return level.plan();
  }

  @Override
  public void beforeTestExecution(ExtensionContext context) {
    SweepRun sweep = sweep();
    MeasuredLevel result = LevelMeasurement.measure(context, level, index, total, deployment);
    List<MeasuredLevel> before = LevelMeasurement.earlier(sweep, result.endpoint());
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    store.put(EarlierLevels.class, new PreviousLevels(plan().label(), before));
    store.put(SweepLevelResult.class, result);
    sweep.measured(result);
    // What the sweep's features give the method (the deployments at its load, its baseline), once it holds the level.
    sweep.parameters(result).forEach(store::put);
  }

  /** The level, the levels before it, and what the registered features give a sweep's methods. */
  static List<Class<?>> parameterTypes() {
    return Stream.concat(Stream.of(SweepLevelResult.class, EarlierLevels.class),
        Features.parameters().stream().map(Parameter::type)).toList();
  }

  @Override
  public List<Class<?>> injects() {
    return parameterTypes();
  }

  @Override
  public Object resolve(Class<?> type, ExtensionContext context) {
    Object value = context.getStore(NAMESPACE).get(type, type);
    if (value != null) return value;
    String label = plan().label();
    return Features.parameter(type).map(p -> p.absent().value(label, label, false))
        .orElseThrow(() -> new IllegalStateException(label + " was not measured"));
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    try {
      MeasuredLevel result = context.getStore(NAMESPACE).get(SweepLevelResult.class, MeasuredLevel.class);
      List<String> violations = result == null ? List.of() : sweep().violations(result);
      AssertionError violated = violations.isEmpty() ? null : new AssertionError(String.join("\n", violations));
      // The verdict counts the level once: what its method threw, else what the sweep's features found.
      context.getExecutionException().or(() -> Optional.ofNullable(violated)).ifPresent(e -> sweep().failed(plan().label(), e));
      if (violated != null) throw violated;
    } finally {
      if (index == total && endsSweep) sweep().finish();
    }
  }

  @Override
  public String toString() {
    return plan().label();
  }
}
