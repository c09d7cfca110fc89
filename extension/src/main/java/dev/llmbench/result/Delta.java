package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.internal.format.Formats;
import java.util.Locale;
import java.util.OptionalDouble;
import org.apiguardian.api.API;

/**
 * How one figure changed from a reference (a baseline, or another deployment) to the current level,
 * judged against noise: the interval of the change comes from bootstrap resamples of both runs' requests,
 * not from two point values, so a change within the runs' own spread is not called a change.
 *
 * @param metric     the figure's metric
 * @param percentile the percentile for a latency, empty for a single value such as throughput
 * @param reference  the reference's value, in the metric's unit (ms for latencies)
 * @param current    the current value, same unit
 * @param change     the relative change {@code current / reference - 1} and its 95% interval: {@code -0.167}
 *                   is 16.7% lower
 * @param verdict    what the change means, given which direction is better and the allowed worsening
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Delta(Metric metric, OptionalDouble percentile, double reference, double current, ConfidenceInterval change,
    Verdict verdict) {

  /** What a change means. */
  public enum Verdict {
    /** Better beyond noise. */
    IMPROVED,
    /** Within noise: the interval of the change includes no change. */
    UNCHANGED,
    /** Worse beyond noise, but by no more than allowed. */
    WORSE,
    /**
     * Worse beyond noise and beyond the allowed worsening, even at the interval's most favourable end; a
     * latency also by more than 2 ms, below which a busy client machine moves latencies run to run.
     */
    REGRESSED
  }

  /** {@return {@code output throughput} or {@code TTFT p50}} */
  public String figure() {
    return metric.label() + (percentile.isPresent() ? " " + Formats.percentile(percentile.getAsDouble()) : "");
  }

  /** {@return lower is better for latencies and the error rate; higher for throughputs, goodput and SLO attainment} */
  public boolean lowerIsBetter() {
    return metric.isLatency() || metric == Metric.ERROR_RATE;
  }

  /** {@code TTFT p50 +20.1% [+18.3%, +21.9%] (12.3 → 14.8 ms): regressed}. */
  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s %s [%s, %s] (%s → %s %s): %s", figure(), signed(change.estimate()),
        signed(change.lower()), signed(change.upper()), value(reference), value(current), metric.unit(),
        verdict.name().toLowerCase(Locale.ROOT));
  }

  private static String signed(double fraction) {
    return String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
  }

  private static String value(double v) {
    return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.3g", v);
  }
}
