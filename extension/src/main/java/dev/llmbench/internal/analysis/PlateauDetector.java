package dev.llmbench.internal.analysis;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.result.Finding;
import dev.llmbench.result.FindingKind;
import dev.llmbench.server.DeploymentDescription;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Throughput stops rising: the lowest level from which no higher level is above it beyond noise,
 * when the highest level has at least twice its concurrency.
 */
final class PlateauDetector implements CurveDetector {

  @Override
  public Optional<Finding> detect(Curve curve) {
    List<SweepLevelResult> levels = curve.levels();
    DeploymentDescription facts = curve.facts();
    int last = levels.size() - 1;
    for (int p = 0; p < last; p++) {
      SweepLevelResult from = levels.get(p);
      boolean flat = true;
      for (int j = p + 1; j <= last && flat; j++) {
        SweepLevelResult l = levels.get(j);
        if (Figures.throughput(l) > Figures.throughput(from) && Noise.throughputsDiffer(from, l)) flat = false;
      }
      if (!flat) continue;
      if (levels.get(last).concurrency() < 2 * from.concurrency()) return Optional.empty();
      SweepLevelResult top = levels.get(last);
      String summary = String.format(Locale.ROOT, "throughput stops rising at C=%d (%.1f tok/s): up to C=%d adds nothing "
          + "beyond noise", from.concurrency(), Figures.throughput(from), top.concurrency());
      Diagnosis.Bound bound = Diagnosis.bound(from, top, facts);
      FindingBuilder b = new FindingBuilder(FindingKind.PLATEAU, summary + "; " + bound.clause(), levels.subList(p, last + 1));
      for (int j = p; j <= last; j++) {
        b.evidence("output throughput at " + levels.get(j).label(), Figures.throughput(levels.get(j)), "tok/s");
      }
      return Optional.of(b.add(bound.causes()).build());
    }
    return Optional.empty();
  }
}
