package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A change point of a series, with the runs on either side: what a finding says and a CI gate checks.
 *
 * @param series the series
 * @param point  the change point; its index is the first run after the change
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SeriesChange(Series series, ChangePoint point) {

  /** {@return the last run before the change} */
  public RunIdentity runBefore() {
    return series.points().get(point.index() - 1).run();
  }

  /** {@return the first run after the change} */
  public RunIdentity runAfter() {
    return series.points().get(point.index()).run();
  }

  /**
   * {@return whether the change is for the worse: a throughput fell, a latency or an error rate rose; a figure
   * LLMBench does not know is a regression either way}
   */
  public boolean isRegression() {
    return StoredFigures.higherIsBetter(series.figure()).map(up -> up == point.relativeChange() < 0).orElse(true);
  }

  /** {@return the first run after the change, counted from 1} */
  public int runNumber() {
    return point.index() + 1;
  }

  /** {@return how many runs the series holds from the first after the change to the newest} */
  public int runsSince() {
    return series.size() - point.index();
  }

  /**
   * {@return the finding: {@code output throughput at C=32 fell 7.8% (±1.2%) between commit a1b2c3d and d4e5f6a
   * (run 142 of 160): 1234.5 tok/s over 141 runs before, 1138.2 tok/s over 19 after, beyond the series' noise (2.1%
   * run to run, p = 0.0003)}}
   */
  public String finding() {
    ChangePoint p = point;
    String verb = p.relativeChange() < 0 ? "fell" : "rose";
    return String.format(Locale.ROOT,
        "%s at %s %s %s (±%s) between commit %s and %s (run %d of %d): %s %s over %d runs before, %s %s over %d after,"
            + " beyond the series' noise (%s run to run, p = %s)",
        series.label(), series.level().level(), verb, percent(Math.abs(p.relativeChange())),
        percent(p.relativeChangeError()), runBefore().shortCommit(), runAfter().shortCommit(), runNumber(),
        series.size(), number(p.meanBefore()), series.unit(), p.countBefore(), number(p.meanAfter()), series.unit(),
        p.countAfter(), percent(p.noiseBefore()), pValue(p.pValue()));
  }

  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
  }

  static String number(double value) {
    double a = Math.abs(value);
    if (a >= 100) return String.format(Locale.ROOT, "%.1f", value);
    if (a >= 1) return String.format(Locale.ROOT, "%.2f", value);
    return String.format(Locale.ROOT, "%.4g", value);
  }

  static String pValue(double p) {
    if (p == 0) return "0";
    if (p < 0.0001) return String.format(Locale.ROOT, "%.1e", p);
    return String.format(Locale.ROOT, "%.4f", p);
  }
}
