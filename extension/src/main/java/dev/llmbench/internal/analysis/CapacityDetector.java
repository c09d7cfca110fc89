package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import java.util.List;
import java.util.Optional;

/**
 * An open loop's capacity ({@link FindingKind#CAPACITY}, always said): the highest offered rate the server kept up
 * with before the first level whose queue built up (see {@link QueueingDetector}).
 */
final class CapacityDetector implements CurveDetector {

  @Override
  public Optional<Finding> detect(Curve curve) {
    SweepLevelResult keptUp = null;
    for (SweepLevelResult l : curve.levels()) {
      if (QueueingDetector.queued(l)) break;
      if (QueueingDetector.keptUp(l)) keptUp = l;
    }
    String capacity = keptUp == null ? "the server kept up with none of the offered rates"
        : "the server kept up with offered rates up to " + Formats.rate(SweepGroups.rate(keptUp)) + " req/s (no queue built up)";
    FindingBuilder b = new FindingBuilder(FindingKind.CAPACITY, capacity, keptUp == null ? List.of() : List.of(keptUp));
    if (keptUp != null) b.evidence("highest rate kept up with", SweepGroups.rate(keptUp), "req/s");
    return Optional.of(b.build());
  }
}
