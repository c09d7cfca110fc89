package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How change points are searched for. The defaults are Apache Otava's ({@code otava/series.py}
 * {@code AnalysisOptions}): a window of 50 points, a p-value of at most 0.001, no least magnitude; 100 permutations
 * when the test is by permutation.
 *
 * @param window       how many points the split step looks at at once (Otava's {@code --window}), at least 2
 * @param maxPValue    the largest p-value a change point may have, above 0 and below 1
 * @param minMagnitude the least {@link ChangePoint#magnitude()} a change point may have, 0 for any (0.05 for 5%)
 * @param significance which test judges candidates
 * @param permutations how many permutations the permutation test draws
 * @param seed         the seed of those permutations, so a run is repeatable
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChangePointSettings(int window, double maxPValue, double minMagnitude, Significance significance,
    int permutations, long seed) {

  /** Otava's defaults: window 50, p at most 0.001, any magnitude, the t-test. */
  public static final ChangePointSettings DEFAULTS =
      new ChangePointSettings(50, 0.001, 0.0, Significance.T_TEST, 100, 1L);

  /**
   * Checks the ranges.
   *
   * @param window       how many points the split step looks at at once, at least 2
   * @param maxPValue    the largest p-value a change point may have, above 0 and below 1
   * @param minMagnitude the least magnitude a change point may have, 0 or more
   * @param significance which test judges candidates
   * @param permutations how many permutations the permutation test draws, at least 1
   * @param seed         the seed of those permutations
   */
  public ChangePointSettings {
    if (window < 2) throw new IllegalArgumentException("window must be at least 2 points, was " + window);
    if (!(maxPValue > 0 && maxPValue < 1)) throw new IllegalArgumentException("maxPValue must be above 0 and below 1, was " + maxPValue);
    if (!(minMagnitude >= 0)) throw new IllegalArgumentException("minMagnitude must be 0 or more, was " + minMagnitude);
    if (significance == null) throw new IllegalArgumentException("significance must be T_TEST or PERMUTATION");
    if (permutations < 1) throw new IllegalArgumentException("permutations must be at least 1, was " + permutations);
  }

  /**
   * {@return these settings with another window}
   *
   * @param points how many points the split step looks at at once
   */
  public ChangePointSettings withWindow(int points) {
    return new ChangePointSettings(points, maxPValue, minMagnitude, significance, permutations, seed);
  }

  /**
   * {@return these settings with another largest p-value}
   *
   * @param p the largest p-value a change point may have
   */
  public ChangePointSettings withMaxPValue(double p) {
    return new ChangePointSettings(window, p, minMagnitude, significance, permutations, seed);
  }

  /**
   * {@return these settings with another least magnitude}
   *
   * @param magnitude the least relative change, 0.05 for 5%
   */
  public ChangePointSettings withMinMagnitude(double magnitude) {
    return new ChangePointSettings(window, maxPValue, magnitude, significance, permutations, seed);
  }

  /**
   * {@return these settings judged by permutations}
   *
   * @param count how many permutations
   * @param seed  their seed
   */
  public ChangePointSettings withPermutations(int count, long seed) {
    return new ChangePointSettings(window, maxPValue, minMagnitude, Significance.PERMUTATION, count, seed);
  }
}
