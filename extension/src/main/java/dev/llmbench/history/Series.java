package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One figure of one level over the runs that measured it, oldest first: what change points are found in.
 *
 * @param level  the level's identity
 * @param figure the figure's name: {@code output_throughput}, {@code ttft.p99}
 * @param unit   its unit
 * @param points the runs and their values, oldest first
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Series(LevelIdentity level, String figure, String unit, List<Point> points) {

  /**
   * One run's value.
   *
   * @param run   the run
   * @param value its value of the figure
   */
  public record Point(RunIdentity run, double value) {}

  /**
   * Copies the points.
   *
   * @param level  the level's identity
   * @param figure the figure's name
   * @param unit   its unit
   * @param points the runs and their values, oldest first
   */
  public Series {
    points = List.copyOf(points);
  }

  /** {@return the values, oldest first} */
  public double[] values() {
    return points.stream().mapToDouble(Point::value).toArray();
  }

  /** {@return how many runs the series holds} */
  public int size() {
    return points.size();
  }

  /**
   * {@return the change points of this series, each with its runs and its finding}
   *
   * @param settings how to search
   */
  public List<SeriesChange> changes(ChangePointSettings settings) {
    List<SeriesChange> changes = new ArrayList<>();
    for (ChangePoint point : ChangePoints.detect(values(), settings)) changes.add(new SeriesChange(this, point));
    return changes;
  }

  /**
   * One stretch between change points, as a trend chart draws it: its mean as a line and mean ± one standard
   * deviation as the noise band.
   *
   * @param from   the first run's index
   * @param to     the index after the last run
   * @param mean   the stretch's mean
   * @param stdDev its population standard deviation (0 for a single run)
   */
  public record Stretch(int from, int to, double mean, double stdDev) {}

  /**
   * {@return the stretches between this series' change points, oldest first: one when there is none}
   *
   * @param settings how to search for change points
   */
  public List<Stretch> stretches(ChangePointSettings settings) {
    double[] values = values();
    List<Stretch> out = new ArrayList<>();
    int from = 0;
    List<Integer> ends = new ArrayList<>();
    for (ChangePoint c : ChangePoints.detect(values, settings)) ends.add(c.index());
    ends.add(values.length);
    for (int to : ends) {
      if (to <= from) continue;
      double mean = 0;
      for (int i = from; i < to; i++) mean += values[i];
      mean /= to - from;
      double squares = 0;
      for (int i = from; i < to; i++) squares += (values[i] - mean) * (values[i] - mean);
      out.add(new Stretch(from, to, mean, Math.sqrt(squares / (to - from))));
      from = to;
    }
    return out;
  }

  /** {@return how people read the figure: {@code output throughput}, {@code TTFT p99}} */
  public String label() {
    return StoredFigures.label(figure);
  }
}
