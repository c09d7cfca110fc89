package dev.llmbench;

import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.report.AllureSupport;
import dev.llmbench.internal.report.SweepReporter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One level of a sweep: measures it before the test method runs, injects the result, reports it after,
 * and reports the whole sweep after the last level.
 */
final class SweepLevelExtension implements BeforeTestExecutionCallback, ParameterResolver, AfterTestExecutionCallback {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SweepLevelExtension.class);

  private final LevelPlan plan;
  private final int index;
  private final int total;
  private final ServiceLevels slo;
  private final List<Double> percentiles;

  SweepLevelExtension(LevelPlan plan, int index, int total, ServiceLevels slo, List<Double> percentiles) {
    this.plan = plan;
    this.index = index;
    this.total = total;
    this.slo = slo;
    this.percentiles = percentiles;
  }

  /** The levels measured so far, in the store of the sweep (the test template's context). */
  static final class SweepState {
    final List<SweepLevelResult> results = new ArrayList<>();
    final SweepReporter reporter;

    SweepState(SweepReporter reporter) {
      this.reporter = reporter;
    }
  }

  private static SweepState state(ExtensionContext invocation) {
    ExtensionContext sweep = invocation.getParent().orElseThrow();
    String title = sweep.getRequiredTestClass().getSimpleName() + "." + sweep.getRequiredTestMethod().getName();
    return sweep.getStore(NAMESPACE).getOrComputeIfAbsent(SweepState.class,
        k -> new SweepState(new SweepReporter(SweepReporter.reportRoot().resolve(title), title)), SweepState.class);
  }

  @Override
  public void beforeTestExecution(ExtensionContext context) {
    if (plan.isOpenLoop()) {
      AllureSupport.parameter("rate", Formats.number(plan.rate()) + " req/s");
      AllureSupport.parameter("burstiness", Formats.number(plan.burstiness()));
      if (plan.concurrency() > 0) AllureSupport.parameter("max concurrency", Integer.toString(plan.concurrency()));
    } else {
      AllureSupport.parameter("concurrency", Integer.toString(plan.concurrency()));
    }
    AllureSupport.parameter("requests", plan.duration() != null ? "for " + Formats.duration(plan.duration())
        : plan.adaptive() != null ? "adaptive" : Integer.toString(plan.requests()));
    AllureSupport.parameter("max_tokens", Integer.toString(plan.maxTokens()));
    AllureSupport.parameter("prompts", plan.workload().name());
    LiveEndpoint endpoint = LiveEndpoint.of(context);
    EndpointInfo info = endpoint.ensureReady();
    AllureSupport.parameter("endpoint", info.reportName());
    AllureSupport.parameter("model", info.model());
    SweepLevelResult result = LevelExecutor.run(endpoint, info, plan, slo, percentiles);
    SweepState state = state(context);
    synchronized (state) {
      context.getStore(NAMESPACE).put(EarlierLevels.class, new EarlierLevels(plan.label(), state.results));
      state.results.add(result);
    }
    context.getStore(NAMESPACE).put(SweepLevelResult.class, result);
    state.reporter.level(result); // on disk before any assertion can fail
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == SweepLevelResult.class || type == EarlierLevels.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    Object value = context.getStore(NAMESPACE).get(type, type);
    if (value == null) throw new IllegalStateException(plan.label() + " was not measured");
    return value;
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    if (index != total) return;
    SweepState state = state(context);
    List<SweepLevelResult> results;
    synchronized (state) {
      results = List.copyOf(state.results);
    }
    if (!results.isEmpty()) state.reporter.sweep(results);
  }

  @Override
  public String toString() {
    return plan.label();
  }
}
