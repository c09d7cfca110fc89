package dev.llmbench.internal.junit;

import dev.llmbench.EarlierLevels;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.baseline.BaselineComparison;
import dev.llmbench.baseline.BaselineSettings;
import dev.llmbench.deployments.DeploymentLevels;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.PreviousLevels;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.quality.Quality;
import java.util.List;
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
 */
record SweepLevelExtension(LevelContext level, int index, int total, Optional<DeploymentSpec> deployment)
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
    // What the sweep's features give the method (DeploymentLevels, BaselineComparison, Quality), once it holds the level.
    sweep.parameters(result).forEach(store::put);
  }

  @Override
  public List<Class<?>> injects() {
    return List.of(SweepLevelResult.class, EarlierLevels.class, DeploymentLevels.class, BaselineComparison.class, Quality.class);
  }

  @Override
  public Object resolve(Class<?> type, ExtensionContext context) {
    Object value = context.getStore(NAMESPACE).get(type, type);
    if (value == null && type == DeploymentLevels.class) {
      throw new IllegalStateException(plan().label() + " compares no deployments: DeploymentLevels needs two or more "
          + "@Deployment, or the setting llmbench.deployments");
    }
    if (value == null && type == Quality.class) {
      throw new IllegalStateException(plan().label() + " runs no eval: Quality needs @QualityEval on the sweep");
    }
    if (value == null && type == BaselineComparison.class) return BaselineSettings.none(plan().label());
    if (value == null) throw new IllegalStateException(plan().label() + " was not measured");
    return value;
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    try {
      MeasuredLevel result = context.getStore(NAMESPACE).get(SweepLevelResult.class, MeasuredLevel.class);
      List<String> violations = result == null ? List.of() : sweep().violations(result);
      if (!violations.isEmpty()) throw new AssertionError(String.join("\n", violations));
    } finally {
      if (index == total) sweep().finish();
    }
  }

  @Override
  public String toString() {
    return plan().label();
  }
}
