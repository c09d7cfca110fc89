package dev.llmbench.internal.load;

import java.time.Duration;

/**
 * What one level of a sweep is asked to do.
 *
 * @param label          display name, e.g. {@code C=8} or {@code C=8, max_tokens=128}
 * @param concurrency    requests in flight (closed loop), or the cap for an open loop (0 = none)
 * @param rate           requests per second for an open loop, 0 for a closed loop
 * @param burstiness     open loop gamma shape (1 = Poisson)
 * @param requests       requests to send, 0 when the level is bounded by {@code duration}
 * @param duration       how long to send for, or null when bounded by {@code requests}
 * @param grace          how long requests in flight may finish after a duration-bounded level stops sending
 * @param maxTokens      {@code max_tokens}
 * @param inputTokens    synthetic prompt length, 0 when prompts come from a prompt set
 * @param ignoreEos      {@code ignore_eos}
 * @param temperature    {@code temperature}, or null for the server's default
 * @param workload       the prompts
 * @param warmupRequests requests sent and discarded before measuring
 * @param adaptive       adaptive-mode settings, or null
 * @param seed           seed of the prompt order and of an open loop's arrival times
 */
public record LevelPlan(
    String label,
    int concurrency,
    double rate,
    double burstiness,
    int requests,
    Duration duration,
    Duration grace,
    int maxTokens,
    int inputTokens,
    boolean ignoreEos,
    Double temperature,
    Workload workload,
    int warmupRequests,
    AdaptivePlan adaptive,
    long seed) {

  public boolean isOpenLoop() {
    return rate > 0;
  }

  /**
   * Adaptive mode: send until the 95% interval of output throughput is within {@code targetHalfWidth}
   * (relative) and every configured percentile has the samples it needs, or a cap is reached.
   */
  public record AdaptivePlan(double targetHalfWidth, int minRequests, int maxRequests, Duration maxDuration) {}
}
