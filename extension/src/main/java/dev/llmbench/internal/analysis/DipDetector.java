package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.analysis.ScalingAnalysis.Point;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The first level under {@value ScalingAnalysis#KNEE_EFFICIENCY} efficiency when a higher level recovers beyond
 * the noise of both ({@link FindingKind#DIP}): a reading of that level, not a limit of the server.
 */
final class DipDetector implements CurveDetector {

  @Override
  public Optional<Finding> detect(Curve curve) {
    List<SweepLevelResult> levels = curve.levels();
    List<Point> points = curve.points();
    Optional<Integer> first = curve.firstBelowKnee();
    Optional<Integer> recovery = first.flatMap(curve::recovery);
    if (recovery.isEmpty()) return Optional.empty();
    int k = first.get();
    int j = recovery.get();
    Point knee = points.get(k);
    Point later = points.get(j);
    SweepLevelResult at = levels.get(k);
    String summary = String.format(Locale.ROOT, "scaling efficiency dips below 80%% at C=%d (%.0f%%) and recovers to %.0f%% "
        + "at C=%d: a reading of C=%d, not a limit of the server", knee.concurrency(), knee.efficiency() * 100,
        later.efficiency() * 100, later.concurrency(), knee.concurrency());
    FindingBuilder b = new FindingBuilder(FindingKind.DIP, summary, List.of(at, levels.get(j)))
        .evidence("scaling efficiency at " + at.label(), knee.efficiency(), "fraction")
        .evidence("scaling efficiency at " + levels.get(j).label(), later.efficiency(), "fraction")
        .evidence("efficiency noise at " + at.label(), curve.efficiencyNoise(k), "fraction");
    b.add(ReadingCauses.cold(at)).add(ReadingCauses.sampleSize(at, Double.NaN)).add(ReadingCauses.client(at));
    Optional<String> wholeLevel = ReadingCauses.firstRoundNoOutlier(at);
    if (wholeLevel.isPresent()) {
      // A summary whose first round cannot have been the slow part: the whole level was slow, not its start.
      b.possible("something at " + at.label() + " alone", "every round of it was slow, not its first: " + wholeLevel.get()
          + "; a batch of " + at.concurrency() + " the server runs on a slower path, or an event on the server while it ran",
          "run " + at.label() + " again, alone and between its neighbours");
    }
    Derived.evidence(b, levels.get(0), at, levels.get(j));
    return Optional.of(b.build());
  }
}
