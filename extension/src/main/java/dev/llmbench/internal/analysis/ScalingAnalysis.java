package dev.llmbench.internal.analysis;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.LoadShape;
import dev.llmbench.RequestResult;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Reads a concurrency sweep the way an engineer reads the table: where throughput stops scaling, where
 * it falls, and what that suggests.
 */
@API(status = INTERNAL)
public final class ScalingAnalysis {

  /** Efficiency below this at the top level means the deployment is bound by something other than compute. */
  static final double POOR_EFFICIENCY = 0.5;

  /** An open-loop level is past saturation when its late requests take this much longer than its early ones. */
  static final double QUEUE_GROWTH = 1.5;

  /**
   * One level's scaling.
   *
   * @param concurrency C
   * @param throughput  output tok/s
   * @param efficiency  throughput at C / (C x throughput at the lowest level, per request in flight)
   */
  public record Point(int concurrency, double throughput, double efficiency) {}

  private final List<Point> points;
  private final List<String> findings;

  private ScalingAnalysis(List<Point> points, List<String> findings) {
    this.points = points;
    this.findings = findings;
  }

  /** Analyses the closed-loop levels of a sweep; levels of one max_tokens/input setting only. */
  public static ScalingAnalysis of(List<? extends SweepLevelResult> levels) {
    List<SweepLevelResult> sorted = levels.stream().filter(l -> l.load() instanceof LoadShape.ClosedLoop && l.succeeded() > 0)
        .map(SweepLevelResult.class::cast).sorted(Comparator.comparingInt(SweepLevelResult::concurrency)).toList();
    List<Point> points = new ArrayList<>();
    List<String> findings = new ArrayList<>();
    if (sorted.isEmpty()) return new ScalingAnalysis(points, List.of("no level completed a request: nothing to analyse"));
    SweepLevelResult base = sorted.get(0);
    double perStream = base.outputThroughput().perSecond() / base.concurrency();
    for (SweepLevelResult l : sorted) {
      double t = l.outputThroughput().perSecond();
      points.add(new Point(l.concurrency(), t, perStream == 0 ? 0 : t / (l.concurrency() * perStream)));
    }
    for (int i = 1; i < points.size(); i++) {
      Point prev = points.get(i - 1);
      Point cur = points.get(i);
      if (cur.throughput() < prev.throughput() * 0.97) {
        findings.add(String.format(Locale.ROOT,
            "throughput fell from %.1f tok/s at C=%d to %.1f tok/s at C=%d: more load made the server slower, "
                + "typical of contention (interconnect, KV-cache preemption or a CPU-bound scheduler)",
            prev.throughput(), prev.concurrency(), cur.throughput(), cur.concurrency()));
      }
    }
    if (points.size() > 1) {
      Point first = points.get(0);
      Point last = points.get(points.size() - 1);
      double load = (double) last.concurrency() / first.concurrency();
      double gain = first.throughput() == 0 ? 0 : last.throughput() / first.throughput();
      String summary = String.format(Locale.ROOT,
          "%.0fx the concurrency (C=%d to C=%d) gave %.1fx the throughput (%.1f to %.1f tok/s): scaling efficiency %.0f%%",
          load, first.concurrency(), last.concurrency(), gain, first.throughput(), last.throughput(), last.efficiency() * 100);
      if (last.efficiency() < POOR_EFFICIENCY) {
        summary += "; each decode step slows as the batch grows, so the deployment is bound by memory bandwidth "
            + "or the interconnect (on GPUs) or by compute (on CPUs), not by how many requests it batches";
      } else {
        summary += "; the server batches well up to this load";
      }
      findings.add(0, summary);
      Point knee = null;
      for (Point p : points) {
        if (p.efficiency() < 0.8) {
          knee = p;
          break;
        }
      }
      if (knee != null && knee != first) {
        findings.add(String.format(Locale.ROOT, "scaling efficiency first drops below 80%% at C=%d (%.0f%%)",
            knee.concurrency(), knee.efficiency() * 100));
      }
    }
    return new ScalingAnalysis(List.copyOf(points), List.copyOf(findings));
  }

  /**
   * Findings for a whole sweep: per workload group, the closed-loop scaling reading, or for an open loop
   * where the server stops keeping up with the offered rate.
   */
  public static List<String> findings(List<? extends SweepLevelResult> levels) {
    List<String> all = new ArrayList<>();
    SweepGroups.of(levels).forEach((group, members) -> {
      String prefix = group.isEmpty() ? "" : "[" + group + "] ";
      List<String> found = members.get(0).load() instanceof LoadShape.OpenLoop ? openLoop(members) : of(members).findings();
      found.forEach(f -> all.add(prefix + f));
    });
    return all;
  }

  /**
   * Levels by ascending offered rate. A level kept up when its queue did not build: the mean latency of
   * its last third of requests (by send time) is at most {@value #QUEUE_GROWTH}x that of its first third.
   * Completed requests per window would mislead here: a short level's window includes the last request's
   * latency.
   */
  static List<String> openLoop(List<SweepLevelResult> byRate) {
    List<String> findings = new ArrayList<>();
    SweepLevelResult keptUp = null;
    for (SweepLevelResult l : byRate) {
      Optional<Double> growth = latencyGrowth(l);
      if (growth.isPresent() && growth.get() <= QUEUE_GROWTH) {
        keptUp = l;
      } else if (growth.isPresent()) {
        findings.add(String.format(Locale.ROOT, "at %s req/s the latency of the last third of requests is %.1fx that of "
            + "the first third: requests queue, the server is past saturation", Formats.number(SweepGroups.rate(l)), growth.get()));
        break;
      }
    }
    findings.add(0, keptUp == null
        ? "the server kept up with none of the offered rates"
        : "the server kept up with offered rates up to " + Formats.number(SweepGroups.rate(keptUp)) + " req/s (no queue built up)");
    return findings;
  }

  /** Mean E2E latency of the last third of successful requests over that of the first third, by send time. */
  static Optional<Double> latencyGrowth(SweepLevelResult l) {
    List<RequestResult> ok = l.requests().stream().filter(RequestResult::succeeded).toList(); // in send order
    int third = ok.size() / 3;
    if (third == 0) return Optional.empty();
    double first = ok.subList(0, third).stream().mapToLong(r -> r.e2eLatency().toNanos()).average().orElse(0);
    double last = ok.subList(ok.size() - third, ok.size()).stream().mapToLong(r -> r.e2eLatency().toNanos()).average().orElse(0);
    return first == 0 ? Optional.empty() : Optional.of(last / first);
  }

  public List<Point> points() {
    return points;
  }

  public List<String> findings() {
    return findings;
  }

  @Override
  public String toString() {
    return String.join("\n", findings);
  }
}
