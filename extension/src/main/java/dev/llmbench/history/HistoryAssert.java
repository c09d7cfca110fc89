package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a history, for a CI gate:
 *
 * <pre>{@code
 * History history = new FileHistoryStore(Path.of(".llmbench/history.jsonl")).read().history().onBranch("main");
 * HistoryAssert.assertThat(history).series(Metric.OUTPUT_THROUGHPUT, "C=32").hasNoChangePointInLast(3);
 * }</pre>
 *
 * A failure lists every change point it concerns, each with its finding, the run it starts at and the runs the
 * gate covers, its p-value and magnitude against the thresholds.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HistoryAssert extends AbstractAssert<HistoryAssert, History> {

  private ChangePointSettings settings = ChangePointSettings.DEFAULTS;

  private HistoryAssert(History actual) {
    super(actual, HistoryAssert.class);
  }

  /**
   * {@return assertions on {@code history}}
   *
   * @param history the history to check
   */
  public static HistoryAssert assertThat(History history) {
    return new HistoryAssert(history);
  }

  /**
   * {@return this assertion, searching with these settings rather than Otava's defaults}
   *
   * @param changePoints how to search for change points
   */
  public HistoryAssert usingSettings(ChangePointSettings changePoints) {
    this.settings = changePoints;
    return this;
  }

  /**
   * {@return assertions on one metric's series at every level labelled {@code level}; a latency means its median}
   *
   * @param metric a metric
   * @param level  a level's label, {@code C=32}
   */
  public SeriesAssert series(Metric metric, String level) {
    return series(List.of(metric), level);
  }

  /**
   * {@return assertions on several metrics' series at every level labelled {@code level}; a latency means its median}
   *
   * @param metrics the metrics
   * @param level   a level's label, {@code C=32}
   */
  public SeriesAssert series(List<Metric> metrics, String level) {
    List<String> names = metrics.stream().map(m -> m.isLatency() ? StoredFigures.name(m, 50) : StoredFigures.name(m)).toList();
    return figures(names, level);
  }

  /**
   * {@return assertions on a latency percentile's series at every level labelled {@code level}}
   *
   * @param latency    a latency metric
   * @param percentile which percentile: 50, 90 or 99 are stored
   * @param level      a level's label, {@code C=32}
   */
  public SeriesAssert series(Metric latency, double percentile, String level) {
    return figures(List.of(StoredFigures.name(latency, percentile)), level);
  }

  /**
   * {@return assertions on figures named as stored ({@code ttft.p99}) at every level labelled {@code level}}
   *
   * @param figures the figures' names
   * @param level   a level's label, {@code C=32}
   */
  public SeriesAssert figures(List<String> figures, String level) {
    isNotNull();
    List<Series> series = actual.series(l -> l.level().equals(level), figures::contains);
    if (series.isEmpty()) {
      failWithMessage("[history] no series of %s at level %s: the history holds %d runs, levels %s", figures, level,
          actual.runs(), actual.levels().stream().map(l -> l.level().level()).distinct().toList());
    }
    return new SeriesAssert(series, figures + " at " + level, settings);
  }

  /** Assertions on the series chosen. */
  @API(status = EXPERIMENTAL, since = "0.1")
  public static final class SeriesAssert extends AbstractAssert<SeriesAssert, List<Series>> {

    private final String description;
    private final ChangePointSettings settings;

    SeriesAssert(List<Series> series, String description, ChangePointSettings settings) {
      super(series, SeriesAssert.class);
      this.description = description;
      this.settings = settings;
    }

    /**
     * No change point among the newest {@code runs} runs of any series: the change the newest runs brought, if
     * any, is within each series' noise.
     *
     * @param runs how many of the newest runs the gate covers, at least 1
     * @return this assertion
     */
    public SeriesAssert hasNoChangePointInLast(int runs) {
      return check(runs, false);
    }

    /**
     * No change for the worse among the newest {@code runs} runs of any series: throughput may rise and latency
     * fall, but not the other way. A figure LLMBench does not know counts both ways.
     *
     * @param runs how many of the newest runs the gate covers, at least 1
     * @return this assertion
     */
    public SeriesAssert hasNoRegressionInLast(int runs) {
      return check(runs, true);
    }

    private SeriesAssert check(int runs, boolean regressionsOnly) {
      if (runs < 1) throw new IllegalArgumentException("the gate covers at least the newest run, was " + runs);
      List<String> violations = new ArrayList<>();
      for (Series s : actual) {
        int first = Math.max(1, s.size() - runs); // index of the oldest run the gate covers
        for (SeriesChange c : s.changes(settings)) {
          if (c.point().index() < first) continue;
          if (regressionsOnly && !c.isRegression()) continue;
          violations.add(String.format(java.util.Locale.ROOT,
              "- %s: %s%n  actual: a change at run %d of %d, p = %s, magnitude %s;"
                  + " required: none in runs %d to %d at p <= %s and magnitude >= %s",
              s.level(), c.finding(), c.runNumber(), s.size(), SeriesChange.pValue(c.point().pValue()),
              SeriesChange.percent(c.point().magnitude()), first + 1, s.size(), settings.maxPValue(),
              SeriesChange.percent(settings.minMagnitude())));
        }
      }
      if (!violations.isEmpty()) {
        failWithMessage("[history] expected no %s in the last %d runs of %s (%d series) but found %d:%n%s",
            regressionsOnly ? "regression" : "change point", runs, description, actual.size(), violations.size(),
            String.join(System.lineSeparator(), violations));
      }
      return this;
    }
  }
}
