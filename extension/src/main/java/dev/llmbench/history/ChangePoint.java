package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A change point of one series: the mean shifts between {@code index - 1} and {@code index}. The statistics
 * compare the stretch before (from the previous change point) with the stretch after (to the next one).
 *
 * @param index        the first point after the change, 1 or more
 * @param qhat         the E-divisive statistic that chose it (0 once the merge step recomputed its statistics)
 * @param meanBefore   the mean of the stretch before
 * @param meanAfter    the mean of the stretch after
 * @param stdDevBefore the population standard deviation of the stretch before
 * @param stdDevAfter  the population standard deviation of the stretch after
 * @param countBefore  how many points the stretch before holds
 * @param countAfter   how many points the stretch after holds
 * @param pValue       the probability of so large a split in a series without a change: Student's two-sided t-test
 *                     or the permutation test, as {@link ChangePointSettings#significance()} says
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChangePoint(int index, double qhat, double meanBefore, double meanAfter, double stdDevBefore,
    double stdDevAfter, int countBefore, int countAfter, double pValue) {

  /** {@return meanAfter / meanBefore - 1 (0 when the mean before is 0): -0.078 for a 7.8% fall} */
  public double relativeChange() {
    return meanBefore == 0 ? 0 : meanAfter / meanBefore - 1;
  }

  /**
   * {@return the larger of the forward and the backward relative change, as Otava's {@code change_magnitude}: a
   * halving is 1.0 (from after to before it doubled), a doubling 1.0 too}
   */
  public double magnitude() {
    double forward = meanBefore == 0 ? 0 : meanAfter / meanBefore - 1;
    double backward = meanAfter == 0 ? 0 : meanBefore / meanAfter - 1;
    return Math.max(Math.abs(forward), Math.abs(backward));
  }

  /**
   * {@return one standard error of {@link #relativeChange()}, from the standard errors of the two means (the delta
   * method): the {@code ±} of a finding}
   */
  public double relativeChangeError() {
    if (meanBefore == 0) return 0;
    double ratio = meanAfter / meanBefore;
    double before = stdDevBefore / Math.sqrt(Math.max(1, countBefore)) / meanBefore;
    double after = meanAfter == 0 ? 0 : stdDevAfter / Math.sqrt(Math.max(1, countAfter)) / meanAfter;
    return Math.abs(ratio) * Math.sqrt(before * before + after * after);
  }

  /** {@return the run-to-run spread before the change, relative to its mean: the series' noise} */
  public double noiseBefore() {
    return meanBefore == 0 ? 0 : stdDevBefore / Math.abs(meanBefore);
  }
}
