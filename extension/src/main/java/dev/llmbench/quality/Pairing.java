package dev.llmbench.quality;

import java.util.ArrayList;
import java.util.List;

/** Two gradings of the same items, item by item: what {@link QualityComparison} reports. */
final class Pairing {

  private Pairing() {}

  /** Over the items graded on both sides (a failed request on either side leaves the item out). */
  public static QualityComparison compare(String candidate, LevelGrading c, String reference, LevelGrading r) {
    List<Integer> both = new ArrayList<>();
    for (int i : r.outcomes().keySet()) {
      LevelGrading.Outcome a = r.outcomes().get(i);
      LevelGrading.Outcome b = c.outcomes().get(i);
      if (b != null && a.graded().isPresent() && b.graded().isPresent()) both.add(i);
    }
    double[] ref = new double[both.size()];
    double[] cand = new double[both.size()];
    int bothCorrect = 0;
    int neither = 0;
    List<String> lost = new ArrayList<>();
    List<String> gained = new ArrayList<>();
    for (int k = 0; k < both.size(); k++) {
      int i = both.get(k);
      boolean a = r.outcomes().get(i).correct();
      boolean b = c.outcomes().get(i).correct();
      ref[k] = a ? 1 : 0;
      cand[k] = b ? 1 : 0;
      if (a && b) bothCorrect++;
      else if (a) lost.add(r.outcomes().get(i).item().id());
      else if (b) gained.add(r.outcomes().get(i).item().id());
      else neither++;
    }
    return new QualityComparison(candidate, reference, both.size(), bothCorrect, lost.size(), gained.size(), neither,
        QualityStats.difference(ref, cand), QualityStats.recovery(ref, cand), QualityStats.mcNemarExact(lost.size(),
        gained.size()), lost, gained);
  }
}
