package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EarlierLevels;
import dev.llmbench.SweepLevelResult;
import java.util.List;
import org.apiguardian.api.API;

/** The {@link EarlierLevels} a level receives: the sweep's levels measured before it. */
@API(status = INTERNAL)
public final class PreviousLevels implements EarlierLevels {

  private final String level;
  private final List<SweepLevelResult> levels;

  public PreviousLevels(String level, List<? extends SweepLevelResult> levels) {
    this.level = level;
    this.levels = List.copyOf(levels);
  }

  @Override
  public List<SweepLevelResult> all() {
    return levels;
  }

  /** Names the level it precedes only, so that reports recording parameters see the same value every run. */
  @Override
  public String toString() {
    return "levels before " + level;
  }
}
