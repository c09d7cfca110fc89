package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apiguardian.api.API;

/**
 * Stored levels, as series to analyse: one series per level identity and figure, its runs oldest first. Read one
 * from a store ({@code store.read().history()}); narrow it to a branch or the newest runs; ask for a series' change
 * points, or assert there are none in the newest runs ({@link HistoryAssert}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class History {

  private final List<LevelRecord> levels;

  private History(List<LevelRecord> levels) {
    this.levels = levels.stream().sorted(Comparator.comparing((LevelRecord l) -> l.run().time())).toList();
  }

  /**
   * {@return a history of these levels}
   *
   * @param levels stored levels, in any order
   */
  public static History of(List<LevelRecord> levels) {
    return new History(levels);
  }

  /** {@return the levels, oldest run first} */
  public List<LevelRecord> levels() {
    return levels;
  }

  /** {@return how many distinct runs the history holds} */
  public int runs() {
    return (int) levels.stream().map(l -> l.run().id()).distinct().count();
  }

  /**
   * {@return the runs on {@code branch} only}
   *
   * @param branch a git branch: {@code main}
   */
  public History onBranch(String branch) {
    return new History(levels.stream().filter(l -> l.run().branch().equals(branch)).toList());
  }

  /**
   * {@return only the newest {@code count} runs}
   *
   * @param count how many runs to keep
   */
  public History lastRuns(int count) {
    Set<String> ids = new LinkedHashSet<>();
    for (LevelRecord l : levels) ids.add(l.run().id());
    List<String> keep = new ArrayList<>(ids).subList(Math.max(0, ids.size() - count), ids.size());
    Set<String> kept = Set.copyOf(keep);
    return new History(levels.stream().filter(l -> kept.contains(l.run().id())).toList());
  }

  /** {@return every series: one per level identity and figure, in the order first stored} */
  public List<Series> series() {
    return series(l -> true, f -> true);
  }

  /**
   * {@return the series of one figure at every level whose label is {@code level}, in every suite and sweep}
   *
   * @param figure a figure's name ({@link StoredFigures#name})
   * @param level  a level's label: {@code C=32}
   */
  public List<Series> series(String figure, String level) {
    return series(l -> l.level().equals(level), figure::equals);
  }

  /**
   * {@return the series of the levels and figures chosen}
   *
   * @param level  which levels
   * @param figure which figures, by name
   */
  public List<Series> series(Predicate<LevelIdentity> level, Predicate<String> figure) {
    Map<LevelIdentity, Map<String, List<Series.Point>>> byLevel = new LinkedHashMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    for (LevelRecord record : levels) {
      if (!level.test(record.level())) continue;
      record.figures().forEach((name, f) -> {
        if (!figure.test(name)) return;
        byLevel.computeIfAbsent(record.level(), k -> new LinkedHashMap<>()).computeIfAbsent(name, k -> new ArrayList<>())
            .add(new Series.Point(record.run(), f.value()));
        units.putIfAbsent(name, f.unit());
      });
    }
    List<Series> out = new ArrayList<>();
    byLevel.forEach((id, figures) -> figures.forEach((name, points) -> out.add(new Series(id, name, units.get(name), points))));
    return out;
  }

  /**
   * {@return every change point of every series, with Otava's defaults unless told otherwise}
   *
   * @param settings how to search
   */
  public List<SeriesChange> changes(ChangePointSettings settings) {
    List<SeriesChange> out = new ArrayList<>();
    for (Series s : series()) out.addAll(s.changes(settings));
    return out;
  }
}
