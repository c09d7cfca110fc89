package dev.llmbench.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * One level of one run, as the history stores it: one line of the file store, one row of the database's levels.
 *
 * @param run     the run's identity
 * @param level   the level's identity
 * @param figures the level's figures by name: a {@code Metric}'s key for single values
 *                ({@code output_throughput}), key and statistic for latencies ({@code ttft.p99}, {@code ttft.mean})
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record LevelRecord(RunIdentity run, LevelIdentity level, Map<String, StoredFigure> figures) {

  /**
   * Copies the figures, keeping their order.
   *
   * @param run     the run's identity
   * @param level   the level's identity
   * @param figures the level's figures by name
   */
  public LevelRecord {
    if (run == null || level == null) throw new IllegalArgumentException("a level record needs a run and a level");
    figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
  }
}
