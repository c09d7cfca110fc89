package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A latency distribution of one level: every statistic is exact over the level's samples, percentiles by
 * linear interpolation as numpy computes them by default (Hyndman-Fan type 7), as vLLM reports them.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface Distribution {

  int count();

  default boolean isEmpty() {
    return count() == 0;
  }

  Optional<Duration> mean();

  /** Population standard deviation, as vLLM reports {@code std_*_ms}. */
  Optional<Duration> stdDev();

  Optional<Duration> min();

  Optional<Duration> max();

  /** The {@code p}-th percentile, 0 &lt; p &le; 100; empty without samples. */
  Optional<Duration> percentile(double p);

  /** Whether there are enough samples for the {@code p}-th percentile to be more than the maximum. */
  default boolean supports(double p) {
    return count() >= samplesNeeded(p);
  }

  /**
   * The fewest samples for which the {@code p}-th percentile is more than the largest sample: p99 needs
   * 100, p99.9 needs 1000, p90 needs 10. Below that it is only the maximum (guidellm#243).
   */
  static int samplesNeeded(double p) {
    if (p >= 100) return 1;
    return (int) Math.ceil(100.0 / (100.0 - p) - 1e-9);
  }
}
