package dev.llmbench.capacity;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.ServiceLevels;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Bisection for the highest load at which the SLO holds: the lower bound first, then the upper, then
 * the middle of the highest load that held and the lowest that failed, until they are within one step.
 * The geometric middle while they are more than a factor of 2 apart, because a range spans orders of
 * magnitude (C=1..256) and a small answer is then found in few, cheap probes; the plain middle after.
 */
final class Search {

  private final double low;
  private final double high;
  private final double step;
  private final boolean whole;
  private double held = Double.NaN;
  private double failed = Double.NaN;
  private Double pending;
  private Capacity.Outcome outcome = Capacity.Outcome.SEARCHING;

  /** @param whole loads are whole numbers (concurrency) */
  public Search(double low, double high, double step, boolean whole) {
    if (!(low > 0 && high > low)) throw new IllegalArgumentException("the range needs 0 < low < high, was " + low + ".." + high);
    if (!(step > 0)) throw new IllegalArgumentException("the step must be positive, was " + step);
    this.low = low;
    this.high = high;
    this.step = step;
    this.whole = whole;
  }

  /** The next load to measure, or empty when the search is over; {@link #record} must answer it first. */
  public OptionalDouble next() {
    if (pending != null) {
      // The last probe was never measured: stop rather than probe it again forever.
      outcome = Capacity.Outcome.STOPPED;
      return OptionalDouble.empty();
    }
    if (outcome != Capacity.Outcome.SEARCHING) return OptionalDouble.empty();
    double load;
    if (Double.isNaN(held) && Double.isNaN(failed)) {
      load = low;
    } else if (Double.isNaN(failed) && held == low) {
      load = high;
    } else if (failed - held <= step) {
      outcome = Capacity.Outcome.FOUND;
      return OptionalDouble.empty();
    } else {
      load = middle(held, failed);
    }
    pending = load;
    return OptionalDouble.of(load);
  }

  private double middle(double a, double b) {
    double m = b > 2 * a ? Math.sqrt(a * b) : (a + b) / 2;
    if (!whole) return m;
    return Math.max(a + 1, Math.min(b - 1, Math.round(m)));
  }

  /** Whether the SLO held at the load {@link #next} asked for. */
  public void record(double load, boolean holds) {
    if (pending == null || pending != load) throw new IllegalStateException("no probe of " + load + " was asked for");
    pending = null;
    if (holds) {
      held = load;
      if (load == high) outcome = Capacity.Outcome.HOLDS_AT_HIGH;
    } else {
      failed = load;
      if (load == low) outcome = Capacity.Outcome.FAILS_AT_LOW;
    }
  }

  /** What the search found so far, with the measured probes as evidence. */
  public Capacity capacity(ServiceLevels slo, List<? extends SweepLevelResult> probes, Optional<String> deployment) {
    return new Capacity(outcome, slo, whole, low, high, step, probeAt(probes, held), probeAt(probes, failed),
        List.copyOf(probes), deployment);
  }

  private static Optional<SweepLevelResult> probeAt(List<? extends SweepLevelResult> probes, double load) {
    return probes.stream().filter(p -> p.load().match(c -> (double) c.concurrency(), o -> o.rate().perSecond()) == load)
        .map(SweepLevelResult.class::cast).reduce((a, b) -> b);
  }

  public Capacity.Outcome outcome() {
    return outcome;
  }

  /** The highest load that held, or NaN. */
  public double held() {
    return held;
  }

  /** The lowest load above it that failed, or NaN. */
  public double failed() {
    return failed;
  }

  public double low() {
    return low;
  }

  public double high() {
    return high;
  }

  public double step() {
    return step;
  }

  public boolean whole() {
    return whole;
  }
}
