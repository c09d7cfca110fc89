package dev.llmbench.offline;

import dev.llmbench.result.Distribution;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** A latency known only by the statistics a table gave: its count, mean, deviation and some percentiles. */
final class SummaryDistribution implements Distribution {

  static final SummaryDistribution EMPTY = new SummaryDistribution(0, null, null, Map.of());

  private final int count;
  private final Duration mean;
  private final Duration stdDev;
  private final TreeMap<Double, Duration> percentiles;

  SummaryDistribution(int count, Duration mean, Duration stdDev, Map<Double, Duration> percentiles) {
    this.count = count;
    this.mean = mean;
    this.stdDev = stdDev;
    this.percentiles = new TreeMap<>(percentiles);
  }

  boolean hasAny() {
    return mean != null || !percentiles.isEmpty();
  }

  @Override
  public int count() {
    return hasAny() ? count : 0;
  }

  @Override
  public Optional<Duration> mean() {
    return Optional.ofNullable(mean);
  }

  @Override
  public Optional<Duration> stdDev() {
    return Optional.ofNullable(stdDev);
  }

  @Override
  public Optional<Duration> min() {
    return Optional.empty();
  }

  @Override
  public Optional<Duration> max() {
    return percentiles.isEmpty() || percentiles.lastKey() < 100 ? Optional.empty() : Optional.of(percentiles.lastEntry().getValue());
  }

  /** Only the percentiles the table gave; any other is unknown. */
  @Override
  public Optional<Duration> percentile(double p) {
    return Optional.ofNullable(percentiles.get(p));
  }

  @Override
  public String toString() {
    return "Distribution[n=" + count + ", mean=" + mean + ", " + percentiles + "]";
  }
}
