package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.sessions.SessionSettings;
import dev.llmbench.trace.TraceFeature;
import dev.llmbench.trace.TraceSource;
import dev.llmbench.workload.ReplyFeature;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The features a sweep's workload brings to its reports, whatever runs its levels: a sweep or a capacity search.
 * Replies (checked replies, embeddings), sessions (figures by turn) and traces (schedule lag) are the workload's,
 * so every runner of levels registers them here, in one place.
 */
@API(status = INTERNAL)
public final class WorkloadFeatures {

  private WorkloadFeatures() {}

  /** @param levels the levels the sweep will run, or one of a search's probes: all send the same workload */
  public static void add(ExtensionContext context, SweepRun sweep, List<LevelPlan> levels) {
    sweep.add(new ReplyFeature()); // says nothing of a level without checked replies or embeddings
    SessionSettings.feature(context, levels, RunState.of(context).shards().shard().isSharded()).ifPresent(sweep::add);
    if (levels.stream().anyMatch(l -> l.workload().prompts().rowSource().filter(TraceSource.class::isInstance).isPresent())) {
      sweep.add(new TraceFeature());
    }
  }
}
