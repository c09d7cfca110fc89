package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.result.LoadShape;
import org.apiguardian.api.API;

/**
 * What one level of a sweep is asked to do. Every part is a validated type, so an illegal plan cannot
 * be built.
 *
 * @param label          display name, e.g. {@code C=8} or {@code C=8, max_tokens=128}
 * @param load           closed loop with C, or open loop with a rate
 * @param stop           when sending stops
 * @param workload       what each request sends
 * @param warmupRequests requests sent and discarded before measuring
 * @param warmupMaxTokens {@code max_tokens} of each warm-up request
 * @param seed           seed of the prompt order and of an open loop's arrival times
 */
@API(status = INTERNAL)
public record LevelPlan(String label, LoadShape load, StopRule stop, WorkloadPlan workload, int warmupRequests,
    int warmupMaxTokens, long seed) {

  public LevelPlan {
    if (label == null || label.isBlank()) throw new IllegalArgumentException("a level needs a label");
    if (warmupRequests < 0) throw new IllegalArgumentException("warm-up requests must not be negative, was " + warmupRequests);
    if (warmupMaxTokens < 1) throw new IllegalArgumentException("warm-up max_tokens must be at least 1, was " + warmupMaxTokens);
  }

  /** A plan whose warm-up requests ask for the level's own {@code max_tokens}. */
  public LevelPlan(String label, LoadShape load, StopRule stop, WorkloadPlan workload, int warmupRequests, long seed) {
    this(label, load, stop, workload, warmupRequests, workload.maxTokens(), seed);
  }

  /** The same plan under another name, e.g. a deployment's {@code C=8 · int4}. */
  public LevelPlan withLabel(String newLabel) {
    return new LevelPlan(newLabel, load, stop, workload, warmupRequests, warmupMaxTokens, seed);
  }

  /** This plan as one shard runs it: its own load, stop rule, slice of the prompts, warm-up and seed. */
  public LevelPlan share(LoadShape newLoad, StopRule newStop, WorkloadPlan newWorkload, int newWarmupRequests, long newSeed) {
    return new LevelPlan(label, newLoad, newStop, newWorkload, newWarmupRequests, warmupMaxTokens, newSeed);
  }

  public int concurrency() {
    return load.concurrency();
  }

  public int maxTokens() {
    return workload.maxTokens();
  }

  public int inputTokens() {
    return workload.inputTokens();
  }
}
