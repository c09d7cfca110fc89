package dev.llmbench.internal.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * One shard's part of a level, as k6 splits a scenario into execution segments. A closed loop's C workers
 * are dealt out (C / N each, the remainder to the first shards), and its requests and warm-up follow the
 * workers, so every worker sends about as many as in a single run and the shards end together. An open
 * loop's rate, cap, requests and warm-up are split evenly over the shards that get a share (with a cap of
 * K below N, only the first K do). A shard that gets nothing skips the level and keeps the schedule.
 * Shards send disjoint slices of the level's prompt sequence (together, for a count, exactly the single
 * run's), and draw open-loop arrivals from seeds of their own; shard 0 keeps the level's seed.
 *
 * @param plan       this shard's plan, the label unchanged; empty when the shard has no share
 * @param skipReason why it has none, or empty
 */
@API(status = INTERNAL)
public record Share(LevelPlan whole, Optional<LevelPlan> plan, String skipReason) {

  /** Spreads the shards' seeds (the 64-bit golden ratio, as SplittableRandom does). */
  private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

  /**
   * Shard {@code index} of {@code count}'s part of {@code whole}.
   *
   * @throws IllegalArgumentException for an adaptive level, whose stop depends on all shards' requests
   */
  public static Share of(LevelPlan whole, int index, int count) {
    if (count == 1) return new Share(whole, Optional.of(whole), "");
    if (whole.stop() instanceof StopRule.Adaptive) {
      throw new IllegalArgumentException(whole.label() + " is adaptive (@Measurement(targetCiHalfWidth)): it stops when "
          + "the whole level's interval is narrow, which no shard can see alone; give sharded levels a duration "
          + "(@Measurement(duration = \"60s\")) or a request count");
    }
    return whole.load().match(c -> closed(whole, c, index, count), o -> open(whole, o, index, count));
  }

  private static Share closed(LevelPlan whole, LoadShape.ClosedLoop load, int index, int count) {
    int c = load.concurrency();
    int before = 0;
    for (int i = 0; i < index; i++) before += even(c, i, count);
    int mine = even(c, index, count);
    if (mine == 0) {
      return skip(whole, c + " worker" + (c == 1 ? "" : "s") + " for " + count + " shards leave" + (c == 1 ? "s" : "")
          + " shard " + index + " none");
    }
    int after = before + mine;
    StopRule stop;
    WorkloadPlan workload;
    if (whole.stop() instanceof StopRule.Count n) {
      int first = proportional(n.requests(), before, c);
      int requests = proportional(n.requests(), after, c) - first;
      if (requests == 0) return skip(whole, n.requests() + " requests over " + c + " workers leave shard " + index + " none");
      stop = new StopRule.Count(requests);
      workload = whole.workload().slice(first, 1);
    } else {
      stop = whole.stop();
      workload = whole.workload().slice(index, count);
    }
    int warmup = proportional(whole.warmupRequests(), after, c) - proportional(whole.warmupRequests(), before, c);
    return mine(whole, new LoadShape.ClosedLoop(mine), stop, workload, warmup, index);
  }

  private static Share open(LevelPlan whole, LoadShape.OpenLoop load, int index, int count) {
    int active = load.maxConcurrency().isPresent() ? Math.min(count, load.maxConcurrency().getAsInt()) : count;
    if (index >= active) {
      return skip(whole, "at most " + load.maxConcurrency().getAsInt() + " in flight leaves shard " + index + " of " + count
          + " no share of the cap");
    }
    OptionalInt cap = load.maxConcurrency().isPresent()
        ? OptionalInt.of(even(load.maxConcurrency().getAsInt(), index, active)) : OptionalInt.empty();
    LoadShape mine = new LoadShape.OpenLoop(Rate.requestsPerSecond(load.rate().perSecond() / active), load.burstiness(), cap);
    StopRule stop;
    WorkloadPlan workload;
    if (whole.stop() instanceof StopRule.Count n) {
      int requests = even(n.requests(), index, active);
      if (requests == 0) return skip(whole, n.requests() + " requests over " + active + " shards leave shard " + index + " none");
      int first = 0;
      for (int i = 0; i < index; i++) first += even(n.requests(), i, active);
      stop = new StopRule.Count(requests);
      workload = whole.workload().slice(first, 1);
    } else {
      stop = whole.stop();
      workload = whole.workload().slice(index, active);
    }
    return mine(whole, mine, stop, workload, even(whole.warmupRequests(), index, active), index);
  }

  /** Shard {@code i}'s part of {@code total} dealt out over {@code n}: the remainder goes to the first shards. */
  static int even(int total, int i, int n) {
    return total / n + (i < total % n ? 1 : 0);
  }

  /** {@code total x part / whole}, rounded half up: differences of these split {@code total} in proportion. */
  static int proportional(int total, int part, int whole) {
    return (int) ((2L * total * part + whole) / (2L * whole));
  }

  private static Share mine(LevelPlan whole, LoadShape load, StopRule stop, WorkloadPlan workload, int warmup, int index) {
    return new Share(whole, Optional.of(whole.share(load, stop, workload, warmup, whole.seed() + index * SEED_STEP)), "");
  }

  private static Share skip(LevelPlan whole, String why) {
    return new Share(whole, Optional.empty(), whole.label() + ": " + why + "; it skips the level and keeps the schedule");
  }

  /** {@code C=4, 10 requests}: what a plan asks of one shard, for progress lines and the manifest. */
  public static String describe(LevelPlan plan) {
    String load = plan.load().match(c -> "C=" + c.concurrency(), o -> Formats.rate(o.rate().perSecond()) + " req/s"
        + (o.maxConcurrency().isPresent() ? " (at most " + o.maxConcurrency().getAsInt() + " in flight)" : ""));
    return load + ", " + plan.stop().match(c -> c.requests() + " requests", t -> "for " + Formats.duration(t.duration()),
        a -> "adaptive");
  }
}
