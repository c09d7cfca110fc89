package dev.llmbench.internal.junit;

import dev.llmbench.DeploymentDescription;
import dev.llmbench.EarlierLevels;
import dev.llmbench.EndpointInfo;
import dev.llmbench.ServiceLevels;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.LevelRunner;
import dev.llmbench.internal.core.LevelStart;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.PreviousLevels;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One level of a sweep: measures it before the test method runs (reports write it at once, before any
 * assertion can fail), injects the result, and after the sweep's last level summarises the sweep.
 *
 * @param index 1-based position among the sweep's {@code total} levels
 */
record SweepLevelExtension(SweepRun sweep, LevelPlan plan, int index, int total, ServiceLevels slo, List<Double> percentiles,
    Optional<DeploymentDescription> deployment)
    implements BeforeTestExecutionCallback, InjectingResolver, AfterTestExecutionCallback {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SweepLevelExtension.class);

  @Override
  public void beforeTestExecution(ExtensionContext context) {
    sweep.listener().levelStarted(sweep, new LevelStart(plan, index, total));
    Endpoint endpoint = RunState.endpoint(context);
    EndpointInfo info = endpoint.ensureReady();
    EarlierLevels earlier = new PreviousLevels(plan.label(), sweep.levels());
    MeasuredLevel result = LevelRunner.run(endpoint, info, plan, slo, percentiles, deployment, sweep.listener());
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    store.put(EarlierLevels.class, earlier);
    store.put(SweepLevelResult.class, result);
    sweep.measured(result);
  }

  @Override
  public List<Class<?>> injects() {
    return List.of(SweepLevelResult.class, EarlierLevels.class);
  }

  @Override
  public Object resolve(Class<?> type, ExtensionContext context) {
    Object value = context.getStore(NAMESPACE).get(type, type);
    if (value == null) throw new IllegalStateException(plan.label() + " was not measured");
    return value;
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    if (index == total) sweep.finish();
  }

  @Override
  public String toString() {
    return plan.label();
  }
}
