package dev.llmbench.internal.compare;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Distribution;
import dev.llmbench.result.ServiceLevels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Whether a level meets its SLO, as {@code assertThat(level).meetsSlo()} judges it: each objective at its
 * percentile, and at least that share of requests good. A percentile with too few samples is its maximum,
 * which only errs on the strict side.
 */
@API(status = INTERNAL)
public final class SloCheck {

  private SloCheck() {}

  /** What the level misses; empty when it meets every objective. */
  public static List<String> violations(SweepLevelResult level, ServiceLevels slo) {
    List<String> v = new ArrayList<>();
    double p = slo.percentile();
    slo.ttft().ifPresent(max -> check(v, level, Metric.TTFT, p, max));
    slo.tpot().ifPresent(max -> check(v, level, Metric.TPOT, p, max));
    slo.e2eLatency().ifPresent(max -> check(v, level, Metric.E2E_LATENCY, p, max));
    if (level.sloAttainment() < p / 100) {
      v.add("SLO attainment " + Formats.percent(level.sloAttainment()) + " is below " + Formats.percent(p / 100));
    }
    return v;
  }

  public static boolean meets(SweepLevelResult level, ServiceLevels slo) {
    return !slo.isEmpty() && violations(level, slo).isEmpty();
  }

  private static void check(List<String> v, SweepLevelResult level, Metric metric, double p, Duration max) {
    Distribution d = metric.distributionOf(level);
    Optional<Duration> value = d.percentile(p);
    if (value.isEmpty()) {
      v.add(metric.label() + ": no successful request to measure");
    } else if (value.get().compareTo(max) > 0) {
      v.add(metric.label() + " " + Formats.percentile(p) + " is " + Formats.duration(value.get()) + ", above "
          + Formats.duration(max));
    }
  }
}
