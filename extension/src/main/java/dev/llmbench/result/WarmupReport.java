package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.SweepLevelResult;
import java.time.Duration;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a level's warm-up did before the level was measured. A closed loop's warm-up aims to have C
 * requests in flight together, so that whatever the server does the first time it runs a batch of C
 * (compiling a kernel, capturing a graph, growing its KV cache) happens before the measurement; it sends
 * up to {@value #MAX_ROUNDS} rounds until it sees that.
 *
 * @param requests      warm-up requests sent, in all rounds
 * @param failed        how many of them failed
 * @param errorsByType  failures by key, as {@link SweepLevelResult#errorsByType()} counts them
 * @param maxTokens     {@code max_tokens} of each warm-up request
 * @param target        requests in flight together the warm-up aimed for: C, or fewer when it sends fewer
 *                      requests than C; 0 for an open loop, which warms up on its own arrival schedule
 * @param peakInFlight  the most warm-up requests in flight together
 * @param rounds        rounds sent
 * @param time          from the first warm-up request sent to the last one finished
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record WarmupReport(int requests, int failed, Map<String, Long> errorsByType, int maxTokens, int target,
    int peakInFlight, int rounds, Duration time) {

  /** The most rounds a warm-up sends while it has not seen its target in flight. */
  public static final int MAX_ROUNDS = 3;

  /**
   * Copies {@code errorsByType}, so the report cannot change.
   *
   * @param requests      warm-up requests sent, in all rounds
   * @param failed        how many of them failed
   * @param errorsByType  failures by key, as {@link SweepLevelResult#errorsByType()} counts them
   * @param maxTokens     {@code max_tokens} of each warm-up request
   * @param target        requests in flight together the warm-up aimed for: C, or fewer when it sends fewer
   *     requests than C; 0 for an open loop, which warms up on its own arrival schedule
   * @param peakInFlight  the most warm-up requests in flight together
   * @param rounds        rounds sent
   * @param time          from the first warm-up request sent to the last one finished
   */
  public WarmupReport {
    errorsByType = Map.copyOf(errorsByType);
  }

  /** {@return whether the warm-up had its target in flight together} */
  public boolean reachedTarget() {
    return peakInFlight >= target;
  }
}
