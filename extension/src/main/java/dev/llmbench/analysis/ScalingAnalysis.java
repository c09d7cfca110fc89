package dev.llmbench.analysis;

import dev.llmbench.SweepLevelResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Reads a concurrency sweep the way an engineer reads the table: where throughput stops scaling, where
 * it falls, and what that suggests.
 */
public final class ScalingAnalysis {

  /** Efficiency below this at the top level means the deployment is bound by something other than compute. */
  static final double POOR_EFFICIENCY = 0.5;

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
  public static ScalingAnalysis of(List<SweepLevelResult> levels) {
    List<SweepLevelResult> sorted = levels.stream().filter(l -> !l.plan().isOpenLoop() && l.succeeded() > 0)
        .sorted(Comparator.comparingInt(SweepLevelResult::concurrency)).toList();
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
            + "or the interconnect rather than compute";
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
