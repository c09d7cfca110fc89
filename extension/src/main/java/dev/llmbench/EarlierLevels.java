package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The levels of the same sweep measured before this one, in run order: inject it beside the
 * {@link SweepLevelResult} to assert how a level compares with the last, e.g. that throughput does not
 * fall as load rises.
 *
 * <pre>{@code
 * void scales(SweepLevelResult level, EarlierLevels earlier) {
 *   earlier.last().ifPresent(prev ->
 *       assertThat(level).outputThroughput().isGreaterThanOrEqualTo(0.9 * prev.outputThroughput().perSecond()));
 * }
 * }</pre>
 *
 * <p>Its {@link Object#toString()} names the level it precedes only, so that reports recording parameters
 * see the same value every run.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface EarlierLevels {

  /** {@return every earlier level, in the order they ran} */
  List<SweepLevelResult> all();

  /** {@return the level just before this one, if any} */
  default Optional<SweepLevelResult> last() {
    List<SweepLevelResult> all = all();
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  /** {@return the sweep's first level, if this is not it} */
  default Optional<SweepLevelResult> first() {
    return all().stream().findFirst();
  }
}
