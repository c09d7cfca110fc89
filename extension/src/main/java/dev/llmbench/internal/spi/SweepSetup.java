package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.load.LevelPlan;
import java.util.List;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A sweep about to run, as a {@link Feature} sees it when it decides what it adds ({@link Feature#sweep}).
 *
 * @param context     the sweep method's context: its annotations and settings
 * @param sweep       the sweep, which holds no level yet
 * @param kind        what runs its levels
 * @param levels      the levels it will run (a capacity search: its first probe; every probe sends the same workload)
 * @param deployments the deployments each level is measured on, by name; empty for one endpoint
 * @param sharded     whether the run is split between shards, each measuring some of the levels
 */
@API(status = INTERNAL)
public record SweepSetup(ExtensionContext context, SweepRun sweep, Kind kind, List<LevelPlan> levels, List<String> deployments,
    boolean sharded) {

  public SweepSetup {
    levels = List.copyOf(levels);
    deployments = List.copyOf(deployments);
  }

  /** What runs the levels. */
  public enum Kind {
    /** {@code @ConcurrencySweep} or {@code @RateSweep}: every declared level, each a test of its own. */
    SWEEP,
    /** {@code @CapacitySearch}: probes picked one after another, each by whether the last met the SLO. */
    SEARCH
  }
}
