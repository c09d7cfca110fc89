package dev.llmbench.result;

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

  /** {@return how many samples there are} */
  int count();

  /** {@return whether there is no sample} */
  default boolean isEmpty() {
    return count() == 0;
  }

  /** {@return the arithmetic mean; empty without samples} */
  Optional<Duration> mean();

  /** {@return population standard deviation, as vLLM reports {@code std_*_ms}} */
  Optional<Duration> stdDev();

  /** {@return the smallest sample; empty without samples} */
  Optional<Duration> min();

  /** {@return the largest sample; empty without samples} */
  Optional<Duration> max();

  /**
   * {@return the {@code p}-th percentile, 0 &lt; p &le; 100; empty without samples}
   *
   * @param p the percentile, as numpy's linear interpolation computes it
   */
  Optional<Duration> percentile(double p);

  /**
   * {@return whether there are enough samples for the {@code p}-th percentile to be more than the maximum}
   *
   * @param p the percentile
   */
  default boolean supports(double p) {
    return count() >= samplesNeeded(p);
  }

  /**
   * {@return the fewest samples for which the {@code p}-th percentile is more than the largest sample: p99 needs
   * 100, p99.9 needs 1000, p90 needs 10} Below that it is only the maximum (guidellm#243).
   *
   * @param p the percentile
   */
  static int samplesNeeded(double p) {
    if (p >= 100) return 1;
    return (int) Math.ceil(100.0 / (100.0 - p) - 1e-9);
  }
}
