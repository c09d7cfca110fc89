package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;


import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointRoute;
import dev.llmbench.internal.core.EndpointSpec;
import dev.llmbench.internal.core.LevelContext;
import dev.llmbench.internal.core.LevelRecorder;
import dev.llmbench.internal.core.RunningLevel;
import dev.llmbench.internal.core.LevelRunner;
import dev.llmbench.internal.core.LevelStart;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.shard.ShardRun;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.tokens.Alignment;
import dev.llmbench.internal.tokens.TokenCountException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.TestAbortedException;

/**
 * Measures one level of a sweep against its endpoint (a deployment's, when the sweep compares several):
 * the endpoint ready and still answering, progress lines, what a JVM shutdown writes, the level recorded.
 * What a sweep level and a capacity probe share.
 */
@API(status = INTERNAL)
public final class LevelMeasurement {

  private LevelMeasurement() {}

  /**
   * @param level the level with its sweep's SLO, percentiles and deployment facts
   * @param index 1-based position among the sweep's {@code total} levels
   * @return the level, already reported to the sweep's listeners
   */
  public static MeasuredLevel measure(ExtensionContext context, LevelContext level, int index, int total,
      Optional<DeploymentSpec> deployment) {
    RunState run = RunState.of(context);
    SweepRun sweep = level.sweep();
    LevelPlan plan = level.plan();
    // A resumed matrix: a candidate measured completely by an earlier run with the same settings is not started again.
    Optional<MeasuredLevel> recorded = deployment.flatMap(d -> sweep.recorded(level, d.name()));
    if (recorded.isPresent()) {
      sweep.listener().levelStarted(sweep, new LevelStart(plan, index, total));
      return recorded.get();
    }
    // In a sharded run this JVM sends its share of the level, measuring from the level's slot; with no share it skips.
    ShardRun.Slot slot = run.shards().begin(sweep, plan, level.slo(), level.percentiles());
    LevelPlan mine = slot.share().orElseThrow(() -> new TestAbortedException(slot.skipReason()));
    sweep.listener().levelStarted(sweep, new LevelStart(mine, index, total));
    Endpoint endpoint = deployment.map(d -> endpoint(context, d)).orElseGet(() -> RunState.endpoint(context));
    // The readiness wait probes the class's routes and this level's: a server that only embeds has no chat to probe.
    EndpointRoute route = plan.workload().extras().embeddings() ? EndpointRoute.EMBEDDINGS : EndpointRoute.GENERATION;
    Set<EndpointRoute> routes = EnumSet.of(route);
    routes.addAll(EndpointRoutes.ofClass(context));
    EndpointInfo ready = endpoint.ensureReady(routes);
    if (route == EndpointRoute.EMBEDDINGS) EmbeddingsRoute.check(context, endpoint, plan);
    else endpoint.require(route);
    EndpointInfo info = deployment.map(d -> ready.asDeployment(d.name())).orElse(ready);
    List<MeasuredLevel> before = earlier(sweep, info);
    endpoint.ensureStillAnswering(before.isEmpty() ? "the readiness wait" : before.get(before.size() - 1).label());
    try {
      // Exact input lengths are aligned here, against the ready server and before the warm-up: never while measuring.
      mine = Alignment.align(endpoint.client(), info.api(), info.model(), mine);
    } catch (TokenCountException e) {
      throw new ExtensionConfigurationException("Configuration error: sweep on method ["
          + ConfigurationErrors.where(context.getRequiredTestMethod()) + "], " + plan.label() + ": the prompts could not be "
          + "aligned to their exact length, so no load was sent: " + e.getMessage(), e);
    }
    LevelContext measured = level.withPlan(mine);
    RunningLevel progress = new RunningLevel(measured, info);
    run.measuring(progress, endpoint);
    MeasuredLevel result;
    try {
      result = LevelRunner.run(endpoint, info, measured, progress, run.progressInterval(), slot::awaitStart,
          recorders(context), Features.replyJudge());
    } finally {
      run.measuring(null, null);
    }
    if (!progress.claim()) throw new IllegalStateException(plan.label() + " was reported by the JVM's shutdown");
    return result;
  }

  /** A deployment's endpoint; a launched candidate's once the one running before it has stopped. */
  private static Endpoint endpoint(ExtensionContext context, DeploymentSpec d) {
    EndpointSpec spec = EndpointSettings.of(context, d);
    return spec.server().isPresent() ? RunState.candidate(context, spec, d.name()) : RunState.endpoint(context, spec);
  }

  /** What the registered features record beside the level (the GPUs' telemetry), read from its settings. */
  static List<LevelRecorder> recorders(ExtensionContext context) {
    try {
      return Features.recorders(context);
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("Configuration error: " + e.getMessage()
          + context.getTestMethod().map(m -> " (" + ConfigurationErrors.where(m) + ")").orElse(""), e);
    }
  }

  /** The sweep's levels measured so far against the same deployment: comparing with another's is DeploymentLevels' job. */
  static List<MeasuredLevel> earlier(SweepRun sweep, EndpointInfo info) {
    return sweep.levels().stream().filter(l -> l.endpoint().deployment().equals(info.deployment())).toList();
  }
}
