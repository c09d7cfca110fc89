package dev.llmbench.internal.analysis;

import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ScalingAnalysis.Point;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The curve's headline ({@link FindingKind#SCALING}): how many times the throughput grew for how many times the
 * concurrency, and, when that is poor, what bounds it.
 */
final class ScalingDetector implements CurveDetector {

  /** Efficiency below this at the top level means the deployment is bound by something other than batching. */
  static final double POOR_EFFICIENCY = 0.5;

  @Override
  public Optional<Finding> detect(Curve curve) {
    List<SweepLevelResult> levels = curve.levels();
    List<Point> points = curve.points();
    DeploymentDescription facts = curve.facts();
    Point first = points.get(0);
    Point last = points.get(points.size() - 1);
    SweepLevelResult lo = levels.get(0);
    SweepLevelResult hi = levels.get(levels.size() - 1);
    double load = (double) last.concurrency() / first.concurrency();
    double gain = first.throughput() == 0 ? 0 : last.throughput() / first.throughput();
    String summary = String.format(Locale.ROOT,
        "%.0fx the concurrency (C=%d to C=%d) gave %.1fx the throughput (%.1f to %.1f tok/s): scaling efficiency %.0f%%",
        load, first.concurrency(), last.concurrency(), gain, first.throughput(), last.throughput(), last.efficiency() * 100);
    FindingBuilder.Causes causes = new FindingBuilder.Causes();
    if (last.efficiency() < POOR_EFFICIENCY) {
      Diagnosis.Bound bound = Diagnosis.bound(lo, hi, facts);
      summary += "; " + bound.clause();
      causes = bound.causes();
    } else {
      summary += "; the server batches well up to this load";
    }
    FindingBuilder b = new FindingBuilder(FindingKind.SCALING, summary, List.of(lo, hi))
        .evidence("output throughput at " + lo.label(), first.throughput(), "tok/s")
        .evidence("output throughput at " + hi.label(), last.throughput(), "tok/s")
        .evidence("scaling efficiency at " + hi.label(), last.efficiency(), "fraction")
        .evidence("TPOT median at " + lo.label(), Figures.medianMs(lo, Metric.TPOT), "ms")
        .evidence("TPOT median at " + hi.label(), Figures.medianMs(hi, Metric.TPOT), "ms")
        .evidence("TTFT median at " + lo.label(), Figures.medianMs(lo, Metric.TTFT), "ms")
        .evidence("TTFT median at " + hi.label(), Figures.medianMs(hi, Metric.TTFT), "ms");
    Figures.gauge(hi, Figures.WAITING).ifPresent(w -> b.evidence("server requests waiting at " + hi.label() + ", peak", w,
        "requests"));
    if (last.efficiency() < POOR_EFFICIENCY) Derived.evidence(b, lo, hi);
    return Optional.of(b.add(causes).build());
  }
}
