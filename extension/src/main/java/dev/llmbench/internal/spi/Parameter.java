package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * A type a sweep's methods may take from a {@link Feature} ({@code DeploymentLevels}, {@code BaselineComparison}).
 *
 * @param type   the parameter's type
 * @param absent what the method gets when the sweep's features give no value of {@code type}
 */
@API(status = INTERNAL)
public record Parameter(Class<?> type, Absent absent) {

  /** The value, or the error, for a method whose sweep does not use the feature. */
  @FunctionalInterface
  public interface Absent {
    /**
     * @param name       what the error names: the level's label, or for an {@code @AfterSweep} method the sweep's title
     * @param level      the level's label (for an {@code @AfterSweep} method, the sweep's last level)
     * @param afterSweep whether an {@code @AfterSweep} method asks
     * @throws IllegalStateException saying what the sweep lacks, when there is no value to give
     */
    Object value(String name, String level, boolean afterSweep);
  }
}
