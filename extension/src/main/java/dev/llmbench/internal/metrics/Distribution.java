package dev.llmbench.internal.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * A latency distribution kept as its raw samples, so that percentiles are exact (numpy's linear
 * interpolation) rather than binned.
 */
public final class Distribution {

  private static final Distribution EMPTY = new Distribution(new double[0]);

  private final double[] nanos; // sorted

  private Distribution(double[] sortedNanos) {
    this.nanos = sortedNanos;
  }

  public static Distribution of(Collection<Duration> samples) {
    if (samples.isEmpty()) return EMPTY;
    double[] values = samples.stream().mapToDouble(d -> (double) d.toNanos()).sorted().toArray();
    return new Distribution(values);
  }

  public int count() {
    return nanos.length;
  }

  public boolean isEmpty() {
    return nanos.length == 0;
  }

  public Optional<Duration> mean() {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(Arrays.stream(nanos).average().orElseThrow()));
  }

  /** Population standard deviation, as vLLM reports {@code std_*_ms}. */
  public Optional<Duration> stdDev() {
    if (isEmpty()) return Optional.empty();
    double mean = Arrays.stream(nanos).average().orElseThrow();
    double variance = Arrays.stream(nanos).map(v -> (v - mean) * (v - mean)).sum() / nanos.length;
    return Optional.of(toDuration(Math.sqrt(variance)));
  }

  public Optional<Duration> min() {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(nanos[0]));
  }

  public Optional<Duration> max() {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(nanos[nanos.length - 1]));
  }

  public Optional<Duration> percentile(double p) {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(Percentiles.of(nanos, p)));
  }

  /** Whether there are enough samples for the {@code p}-th percentile to be more than the maximum. */
  public boolean supports(double p) {
    return nanos.length >= Percentiles.samplesNeeded(p);
  }

  /** The samples in nanoseconds, sorted ascending; a copy. */
  public double[] nanos() {
    return nanos.clone();
  }

  static Duration toDuration(double nanos) {
    return Duration.ofNanos(Math.round(nanos));
  }

  @Override
  public String toString() {
    return "Distribution[n=" + nanos.length + mean().map(m -> ", mean=" + m).orElse("") + "]";
  }
}
