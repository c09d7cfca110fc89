package dev.llmbench.history;

/**
 * The E-divisive statistic of Matteson and James (2014, arXiv:1306.4933) over one series: for a split of
 * {@code [s, e)} at {@code tau} into {@code X = [s, tau)} and {@code Y = [tau, kappa)}, with {@code n = |X|},
 * {@code m = |Y|}:
 *
 * <pre>
 * Q = 2/(m+n) * sum|X_i - Y_j| - 2m/((m+n)(n-1)) * sum_{i&lt;k}|X_i - X_k| - 2n/((m+n)(m-1)) * sum_{j&lt;k}|Y_j - Y_k|
 * </pre>
 *
 * maximised over {@code s < tau < kappa <= e}; the best {@code tau} is the candidate change point (the first run
 * after the change). Apache Otava (otava/change_point_divisive/calculator.py) computes the same Q with numpy
 * cumulative sums; here the three sums grow by one column prefix sum per step, O(length^2) per interval.
 */
final class EDivisive {

  /** A candidate: the first index after the change, and its Q. */
  record Candidate(int index, double qhat) {}

  private final double[] series;
  /** prefix[c][r]: the sum of |x_i - x_c| over i &lt; r. */
  private final double[][] prefix;

  EDivisive(double[] series) {
    this.series = series;
    int n = series.length;
    prefix = new double[n][n + 1];
    for (int c = 0; c < n; c++) {
      double sum = 0;
      for (int r = 0; r < n; r++) {
        prefix[c][r] = sum;
        sum += Math.abs(series[r] - series[c]);
      }
      prefix[c][n] = sum;
    }
  }

  /** {@return the sum of |x_i - x_c| for i in [from, to)} */
  private double columnSum(int c, int from, int to) {
    return prefix[c][to] - prefix[c][from];
  }

  /**
   * {@return the best split of {@code [start, end)}, which must hold at least two points} Ties keep the first
   * (smallest tau, then smallest kappa), as numpy's argmax does.
   */
  Candidate candidate(int start, int end) {
    if (end - start < 2) throw new IllegalArgumentException("an interval of at least 2 points, was [" + start + ", " + end + ")");
    double best = Double.NEGATIVE_INFINITY;
    int bestTau = start + 1;
    double withinX = 0; // pairs inside [start, tau)
    for (int tau = start + 1; tau < end; tau++) {
      if (tau > start + 1) withinX += columnSum(tau - 1, start, tau - 1);
      int n = tau - start;
      double between = 0;
      double withinY = 0;
      for (int kappa = tau + 1; kappa <= end; kappa++) {
        int last = kappa - 1; // the point Y gains
        between += columnSum(last, start, tau);
        withinY += columnSum(last, tau, last);
        int m = kappa - tau;
        double q = 2.0 / (m + n) * between;
        if (n > 1) q -= 2.0 * m / ((double) (m + n) * (n - 1)) * withinX;
        if (m > 1) q -= 2.0 * n / ((double) (m + n) * (m - 1)) * withinY;
        if (q > best) {
          best = q;
          bestTau = tau;
        }
      }
    }
    return new Candidate(bestTau, best);
  }

  double[] series() {
    return series;
  }
}
