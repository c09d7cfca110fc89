package dev.llmbench;

import java.util.List;
import java.util.Optional;

/**
 * The levels of the same sweep measured before this one, in run order: inject it beside the
 * {@link SweepLevelResult} to assert how a level compares with the last, e.g. that throughput does not
 * fall as load rises.
 *
 * <pre>{@code
 * void scales(SweepLevelResult level, EarlierLevels earlier) {
 *   earlier.last().ifPresent(prev ->
 *       assertThat(level).outputTokensPerSecond().isGreaterThanOrEqualTo(0.9 * prev.outputThroughput().perSecond()));
 * }
 * }</pre>
 */
public final class EarlierLevels {

  private final String level;
  private final List<SweepLevelResult> levels;

  EarlierLevels(String level, List<SweepLevelResult> levels) {
    this.level = level;
    this.levels = List.copyOf(levels);
  }

  public List<SweepLevelResult> all() {
    return levels;
  }

  public Optional<SweepLevelResult> last() {
    return levels.isEmpty() ? Optional.empty() : Optional.of(levels.get(levels.size() - 1));
  }

  public Optional<SweepLevelResult> first() {
    return levels.stream().findFirst();
  }

  /** Names the level it precedes only, so that reports recording parameters see the same value every run. */
  @Override
  public String toString() {
    return "levels before " + level;
  }
}
