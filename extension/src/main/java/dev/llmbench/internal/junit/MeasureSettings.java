package dev.llmbench.internal.junit;

import static dev.llmbench.internal.config.SettingKeys.SWEEP_REQUESTS;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_ROUNDS;

import dev.llmbench.Measurement;
import dev.llmbench.Slo;
import dev.llmbench.internal.config.DurationParser;
import dev.llmbench.internal.config.Setting;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.workload.LengthDistribution;
import dev.llmbench.result.ServiceLevels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How much a sweep's levels measure and against what, read and checked: {@code @Measurement}'s count, duration or
 * target interval, its percentiles, the {@code @Slo}, and {@code @Workload}'s length distributions.
 */
final class MeasureSettings {

  private MeasureSettings() {}

  /** Requests or whole rounds per level, at most one of them above 0 (0 and 0: automatic). */
  record Count(int requests, int rounds) {}

  /**
   * A setting wins over both attributes, as every setting wins over its annotation; within one source,
   * requests and rounds are exclusive.
   */
  static Count count(Settings settings, Measurement m, boolean closedLoop) {
    Optional<Integer> requests = settings.get(SWEEP_REQUESTS).optional();
    Optional<Integer> rounds = settings.get(SWEEP_ROUNDS).optional();
    Count count;
    if (requests.isPresent() && rounds.isPresent()) {
      throw new IllegalArgumentException("llmbench.sweep.requests and llmbench.sweep.rounds are both set; set one of them");
    } else if (requests.isPresent()) {
      count = new Count(requests.get(), 0);
    } else if (rounds.isPresent()) {
      count = new Count(0, rounds.get());
    } else {
      if (m.requests() < 0) throw new IllegalArgumentException("@Measurement 'requests' must be 0 (automatic) or positive, was " + m.requests());
      if (m.rounds() < 0) throw new IllegalArgumentException("@Measurement 'rounds' must be 0 (automatic) or positive, was " + m.rounds());
      if (m.requests() > 0 && m.rounds() > 0) {
        throw new IllegalArgumentException("@Measurement sets both 'requests' (" + m.requests() + ") and 'rounds' ("
            + m.rounds() + "); set one of them");
      }
      count = new Count(m.requests(), m.rounds());
    }
    if (count.rounds() > 0 && !closedLoop) {
      throw new IllegalArgumentException("'rounds' counts whole rounds of C requests in a closed loop; a @RateSweep "
          + "sends by rate: use 'requests' or 'duration'");
    }
    if (count.rounds() > 0 && (!m.duration().isBlank() || m.targetCiHalfWidth() > 0)) {
      throw new IllegalArgumentException("@Measurement bounds each level by 'rounds' and by "
          + (m.duration().isBlank() ? "'targetCiHalfWidth'" : "'duration'") + "; pick one");
    }
    return count;
  }

  /** A duration or adaptive rule when {@link Measurement} asks for one; empty for a count per level. */
  static Optional<StopRule> fixedStopRule(Measurement m, int requests, List<Double> percentiles) {
    if (m.targetCiHalfWidth() < 0 || m.targetCiHalfWidth() >= 1) {
      throw new IllegalArgumentException("'targetCiHalfWidth' must be in [0, 1), e.g. 0.05 for ±5%; was " + m.targetCiHalfWidth());
    }
    Duration grace = duration(m.grace(), "grace");
    if (!m.duration().isBlank()) {
      if (m.targetCiHalfWidth() > 0) throw new IllegalArgumentException("set either 'duration' or 'targetCiHalfWidth' (adaptive), not both");
      return Optional.of(new StopRule.Timed(duration(m.duration(), "duration"), grace));
    }
    if (m.targetCiHalfWidth() == 0) return Optional.empty();
    int needed = percentiles.stream().mapToInt(dev.llmbench.result.Distribution::samplesNeeded).max().orElse(1);
    int max = m.maxRequests() == 0 ? 1000 : m.maxRequests();
    if (max < needed) {
      throw new IllegalArgumentException("'maxRequests' " + max + " is below the " + needed + " requests the highest percentile needs");
    }
    return Optional.of(new StopRule.Adaptive(m.targetCiHalfWidth(), Math.max(needed, requests), max,
        duration(m.maxDuration(), "maxDuration")));
  }

  static List<Double> percentiles(double[] values) {
    if (values.length == 0) throw new IllegalArgumentException("'percentiles' must list at least one, e.g. {50, 90, 99}");
    List<Double> ps = new ArrayList<>();
    for (double p : values) {
      if (p <= 0 || p >= 100) throw new IllegalArgumentException("percentile " + p + " must be between 0 and 100, e.g. 99 or 99.9");
      if (ps.contains(p)) throw new IllegalArgumentException("percentile " + p + " is listed twice");
      ps.add(p);
    }
    return List.copyOf(ps);
  }

  static ServiceLevels serviceLevels(Slo s) {
    if (s.percentile() <= 0 || s.percentile() > 100) {
      throw new IllegalArgumentException("@Slo percentile must be in (0, 100], was " + s.percentile());
    }
    ServiceLevels levels = ServiceLevels.none().atPercentile(s.percentile());
    if (!s.ttft().isBlank()) levels = levels.withTtft(duration(s.ttft(), "@Slo ttft"));
    if (!s.tpot().isBlank()) levels = levels.withTpot(duration(s.tpot(), "@Slo tpot"));
    if (!s.e2eLatency().isBlank()) levels = levels.withE2eLatency(duration(s.e2eLatency(), "@Slo e2eLatency"));
    return levels;
  }

  /** A length distribution from its setting, else from the attribute; empty when neither is set. */
  static Optional<LengthDistribution> lengths(Settings settings, Setting<LengthDistribution> key,
      String attribute, String name) {
    Optional<LengthDistribution> set = settings.get(key).optional();
    if (set.isPresent() || attribute.isBlank()) return set;
    try {
      return Optional.of(LengthDistribution.parse(attribute));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@Workload '" + name + "': " + e.getMessage(), e);
    }
  }

  static Duration duration(String text, String attribute) {
    Duration d;
    try {
      d = DurationParser.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + attribute + "': " + e.getMessage(), e);
    }
    if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("'" + attribute + "': '" + text + "' must be positive");
    return d;
  }
}
