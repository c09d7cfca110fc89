package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.ConfidenceInterval;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Two deployments on the same eval items at one load, item by item: only items graded on both count (a
 * failed request on either side leaves its item out). The difference in accuracy and the recovery (the
 * candidate's accuracy over the reference's, as model cards of quantised models report it) carry 95% paired
 * bootstrap intervals; the exact McNemar test says whether the items that flipped lean one way beyond
 * chance (docs/quality.md).
 *
 * @param candidate    the deployment judged
 * @param reference    the deployment it is judged against
 * @param pairs        items graded on both
 * @param bothCorrect  items both answered right
 * @param onlyReference items only the reference answered right: lost by the candidate
 * @param onlyCandidate items only the candidate answered right: gained
 * @param neither      items neither answered right
 * @param difference   candidate's accuracy minus the reference's, with its interval
 * @param recovery     candidate's accuracy over the reference's, with its interval
 * @param mcNemarP     the exact McNemar test's two-sided p-value
 * @param lost         ids of the items in {@code onlyReference}
 * @param gained       ids of the items in {@code onlyCandidate}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record QualityComparison(String candidate, String reference, int pairs, int bothCorrect, int onlyReference,
    int onlyCandidate, int neither, ConfidenceInterval difference, ConfidenceInterval recovery, double mcNemarP,
    List<String> lost, List<String> gained) {

  /** The significance level below which a McNemar p-value is beyond noise. */
  public static final double ALPHA = 0.05;

  /**
   * Copies the lists.
   *
   * @param candidate    the deployment judged
   * @param reference    the deployment it is judged against
   * @param pairs        items graded on both
   * @param bothCorrect  items both answered right
   * @param onlyReference items only the reference answered right
   * @param onlyCandidate items only the candidate answered right
   * @param neither      items neither answered right
   * @param difference   candidate's accuracy minus the reference's
   * @param recovery     candidate's accuracy over the reference's
   * @param mcNemarP     the exact McNemar p-value
   * @param lost         ids of the items lost
   * @param gained       ids of the items gained
   */
  public QualityComparison {
    lost = List.copyOf(lost);
    gained = List.copyOf(gained);
  }

  /** The candidate's accuracy over the paired items, the recovery's numerator. */
  double candidateAccuracy() {
    return pairs == 0 ? Double.NaN : (double) (bothCorrect + onlyCandidate) / pairs;
  }

  /** The reference's accuracy over the paired items, the recovery's denominator. */
  double referenceAccuracy() {
    return pairs == 0 ? Double.NaN : (double) (bothCorrect + onlyReference) / pairs;
  }

  /** {@return whether the candidate answers fewer items right than the reference, beyond chance (McNemar p below 0.05)} */
  public boolean worseBeyondNoise() {
    return onlyReference > onlyCandidate && mcNemarP < ALPHA;
  }

  /** {@return whether the candidate answers more items right than the reference, beyond chance} */
  public boolean betterBeyondNoise() {
    return onlyCandidate > onlyReference && mcNemarP < ALPHA;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s against %s on %d paired items: difference %+.1f points [%+.1f, %+.1f], recovery "
        + "%.1f%% [%.1f%%, %.1f%%], %d lost and %d gained (exact McNemar p = %.3g)", candidate, reference, pairs,
        100 * difference.estimate(), 100 * difference.lower(), 100 * difference.upper(), 100 * recovery.estimate(),
        100 * recovery.lower(), 100 * recovery.upper(), onlyReference, onlyCandidate, mcNemarP);
  }
}
