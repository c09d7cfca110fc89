package dev.llmbench.capacity;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.server.TokenCost;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a {@link CapacitySearch} found: the highest load at which the SLO held, and the evidence, the
 * measured levels either side of it.
 *
 * @param outcome      how the search ended
 * @param slo          the objectives searched under
 * @param closedLoop   a concurrency (true) or a request rate (false) was searched
 * @param low          the searched range's lower bound
 * @param high         its upper bound
 * @param step         the answer's precision
 * @param atCapacity   the highest level that met the SLO
 * @param beyond       the lowest level above it that missed the SLO
 * @param probes       every level measured, in the order they ran
 * @param deployment   the deployment searched, in a suite of several
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Capacity(Outcome outcome, ServiceLevels slo, boolean closedLoop, double low, double high, double step,
    Optional<SweepLevelResult> atCapacity, Optional<SweepLevelResult> beyond, List<SweepLevelResult> probes,
    Optional<String> deployment) {

  /** How a search ended. */
  public enum Outcome {
    /** Still probing: what a probe's test sees. */
    SEARCHING,
    /** The SLO holds at {@link #load()} and fails one step above it. */
    FOUND,
    /** The SLO holds even at the upper bound: the capacity is at least that. */
    HOLDS_AT_HIGH,
    /** The SLO fails even at the lower bound. */
    FAILS_AT_LOW,
    /** A probe could not be measured (the endpoint never got ready, say); the search stopped there. */
    STOPPED
  }

  /**
   * Copies {@code probes}, so the result cannot change.
   *
   * @param outcome      how the search ended
   * @param slo          the objectives searched under
   * @param closedLoop   a concurrency (true) or a request rate (false) was searched
   * @param low          the searched range's lower bound
   * @param high         its upper bound
   * @param step         the answer's precision
   * @param atCapacity   the highest level that met the SLO
   * @param beyond       the lowest level above it that missed the SLO
   * @param probes       every level measured, in the order they ran
   * @param deployment   the deployment searched, in a suite of several
   */
  public Capacity {
    probes = List.copyOf(probes);
  }

  /** {@return the highest load that met the SLO, in the searched unit (C, or requests per second); 0 when none did} */
  public double load() {
    return atCapacity.map(Capacity::loadOf).orElse(0.0);
  }

  /** {@return the capacity as a concurrency; for a closed-loop search only} */
  public int concurrency() {
    if (!closedLoop) throw new IllegalStateException("this search was over request rates: use load()");
    return (int) load();
  }

  static double loadOf(SweepLevelResult level) {
    return level.load().match(c -> (double) c.concurrency(), o -> o.rate().perSecond());
  }

  /** {@code C=12} or {@code 4.5 req/s}. */
  String name(double load) {
    return closedLoop ? "C=" + (int) load : Formats.rate(load) + " req/s";
  }

  /**
   * {@return the answer in a sentence, with its evidence: {@code capacity under the SLO (TPOT ≤ 52.5 ms at p90):
   * C=9; holds at C=9 (TPOT p90 50.3 ms ≤ 52.5 ms; ...), fails at C=10 (TPOT p90 55.4 ms > 52.5 ms; ...);
   * searched C=4..C=16 in 6 probes, to within 1}}
   */
  public String statement() {
    String who = deployment.map(d -> d + ": ").orElse("");
    String range = "searched " + name(low) + ".." + name(high) + " in " + probes.size() + " probe" + (probes.size() == 1 ? "" : "s")
        + ", to within " + (closedLoop ? Formats.number(step) : String.format(Locale.ROOT, "%.3g req/s", step));
    String head = who + "capacity under the SLO (" + slo + "): ";
    return switch (outcome) {
      case SEARCHING -> head + "still searching; " + range;
      case STOPPED -> head + "unknown: the search stopped after " + probes.size() + " probe(s), as one could not be measured";
      case FAILS_AT_LOW -> head + "below " + name(low) + ": fails at " + name(low) + evidence(beyond) + "; " + range;
      case HOLDS_AT_HIGH -> head + "at least " + name(high) + ": holds at " + name(high) + evidence(atCapacity) + "; " + range
          + cost();
      case FOUND -> head + name(load()) + "; holds at " + name(load()) + evidence(atCapacity) + ", fails at "
          + name(beyond.map(Capacity::loadOf).orElse(0.0)) + evidence(beyond) + "; " + range + cost();
    };
  }

  /**
   * {@return what the tokens cost at the capacity, on its deployment's price per GPU-hour and GPU count; empty without
   * a price, or without a level that held}
   */
  public Optional<TokenCost> tokenCost() {
    return atCapacity.flatMap(SweepLevelResult::tokenCost);
  }

  /** {@code ; at C=14: $0.123 per 1M output tokens, ... (8 GPUs at $2.50/GPU-h)}, or nothing without a price. */
  private String cost() {
    return tokenCost().map(c -> "; at " + name(loadOf(atCapacity.get())) + ": " + c.describe()).orElse("");
  }

  /**
   * Names the search only, so that reports recording parameters (Allure) see the same value every run;
   * {@link #statement()} says what it found.
   */
  @Override
  public String toString() {
    return "capacity" + deployment.map(d -> " of " + d).orElse("");
  }

  private String evidence(Optional<SweepLevelResult> level) {
    return level.map(l -> " (" + Evidence.of(l, slo) + ")").orElse("");
  }

  /** The objectives' figures of a level, as the capacity statement quotes them. */
  static final class Evidence {
    private Evidence() {}

    static String of(SweepLevelResult l, ServiceLevels slo) {
      StringBuilder s = new StringBuilder();
      double p = slo.percentile();
      slo.ttft().ifPresent(max -> figure(s, Metric.TTFT.label(), l.ttft(), p, max));
      slo.tpot().ifPresent(max -> figure(s, Metric.TPOT.label(), l.tpot(), p, max));
      slo.e2eLatency().ifPresent(max -> figure(s, Metric.E2E_LATENCY.label(), l.e2eLatency(), p, max));
      s.append("SLO attainment ").append(Formats.percent(l.sloAttainment()));
      return s.toString();
    }

    private static void figure(StringBuilder s, String label, Distribution d, double p, Duration max) {
      Optional<Duration> v = d.percentile(p);
      s.append(label).append(' ').append(Formats.percentile(p)).append(' ').append(v.map(Formats::duration).orElse("-"))
          .append(v.isPresent() && v.get().compareTo(max) <= 0 ? " ≤ " : " > ").append(Formats.duration(max)).append("; ");
    }
  }
}
