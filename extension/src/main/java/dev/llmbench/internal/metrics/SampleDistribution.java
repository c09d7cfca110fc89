package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.result.Distribution;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;
import org.apiguardian.api.API;

/** A distribution kept as its raw samples, so that percentiles are exact rather than binned. */
@API(status = INTERNAL)
public final class SampleDistribution implements Distribution {

  private static final SampleDistribution EMPTY = new SampleDistribution(new double[0]);

  private final double[] nanos; // sorted

  private SampleDistribution(double[] sortedNanos) {
    this.nanos = sortedNanos;
  }

  public static SampleDistribution of(Collection<Duration> samples) {
    if (samples.isEmpty()) return EMPTY;
    return new SampleDistribution(samples.stream().mapToDouble(d -> (double) d.toNanos()).sorted().toArray());
  }

  /** From samples in nanoseconds, in any order; the array is sorted in place and kept. */
  public static SampleDistribution ofNanos(double[] nanos) {
    if (nanos.length == 0) return EMPTY;
    Arrays.sort(nanos);
    return new SampleDistribution(nanos);
  }

  @Override
  public int count() {
    return nanos.length;
  }

  @Override
  public Optional<Duration> mean() {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(Arrays.stream(nanos).average().orElseThrow()));
  }

  @Override
  public Optional<Duration> stdDev() {
    if (isEmpty()) return Optional.empty();
    double mean = Arrays.stream(nanos).average().orElseThrow();
    double variance = Arrays.stream(nanos).map(v -> (v - mean) * (v - mean)).sum() / nanos.length;
    return Optional.of(toDuration(Math.sqrt(variance)));
  }

  @Override
  public Optional<Duration> min() {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(nanos[0]));
  }

  @Override
  public Optional<Duration> max() {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(nanos[nanos.length - 1]));
  }

  @Override
  public Optional<Duration> percentile(double p) {
    return isEmpty() ? Optional.empty() : Optional.of(toDuration(Percentiles.of(nanos, p)));
  }

  /** The samples in nanoseconds, sorted ascending; a copy. */
  public double[] nanos() {
    return nanos.clone();
  }

  private static Duration toDuration(double nanos) {
    return Duration.ofNanos(Math.round(nanos));
  }

  @Override
  public String toString() {
    return "Distribution[n=" + nanos.length + mean().map(m -> ", mean=" + m).orElse("") + "]";
  }
}
