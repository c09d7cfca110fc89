package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ScalingAnalysis.Point;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The first level under {@value ScalingAnalysis#KNEE_EFFICIENCY} efficiency, when no higher level recovers beyond
 * the noise of both ({@link FindingKind#KNEE}; when one does, {@link DipDetector} reads it).
 */
final class KneeDetector implements CurveDetector {

  @Override
  public Optional<Finding> detect(Curve curve) {
    List<SweepLevelResult> levels = curve.levels();
    List<Point> points = curve.points();
    DeploymentDescription facts = curve.facts();
    Optional<Integer> first = curve.firstBelowKnee();
    if (first.isEmpty() || curve.recovery(first.get()).isPresent()) return Optional.empty();
    int k = first.get();
    Point knee = points.get(k);
    SweepLevelResult at = levels.get(k);
    String summary = String.format(Locale.ROOT, "scaling efficiency first drops below 80%% at C=%d (%.0f%%)",
        knee.concurrency(), knee.efficiency() * 100);
    Diagnosis.Bound bound = Diagnosis.bound(levels.get(0), at, facts);
    FindingBuilder b = new FindingBuilder(FindingKind.KNEE, summary + ": " + bound.clause(), List.of(at))
        .evidence("scaling efficiency at " + at.label(), knee.efficiency(), "fraction")
        .evidence("efficiency noise", curve.efficiencyNoise(k), "fraction");
    for (int j = k + 1; j < points.size(); j++) {
      b.evidence("scaling efficiency at " + levels.get(j).label(), points.get(j).efficiency(), "fraction");
    }
    Derived.evidence(b, levels.get(0), at);
    return Optional.of(b.add(bound.causes()).build());
  }
}
