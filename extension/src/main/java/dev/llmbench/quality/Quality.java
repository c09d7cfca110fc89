package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.SweepLevelResult;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a {@link QualityEval} found at one load, for each deployment measured there so far: a level's test
 * method takes it as a parameter beside its {@link SweepLevelResult}. The last deployment's test at a load
 * sees every deployment, so comparisons are decided there.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 32})
 * @QualityEval(generated = QualityEval.Generated.ARITHMETIC, items = 200)
 * void quality(SweepLevelResult level, Quality quality) {
 *   assertThat(quality).deployment("int4").recoversAtLeast(0.97).of("fp8");
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface Quality {

  /** {@return the load, such as {@code C=8}} */
  String load();

  /** {@return the deployments the sweep compares, or one empty name for a sweep of one endpoint} */
  List<String> deployments();

  /**
   * {@return how {@code deployment} answered at this load; empty until it is measured here}
   *
   * @param deployment a deployment's name ({@code ""} for a sweep of one endpoint)
   */
  Optional<Accuracy> accuracy(String deployment);

  /** {@return how the sweep's one endpoint answered, or the only deployment measured so far} */
  Accuracy accuracy();

  /**
   * {@return {@code candidate} against {@code reference} item by item; empty until both are measured at this load}
   *
   * @param candidate the deployment judged
   * @param reference the deployment it is judged against
   */
  Optional<QualityComparison> compare(String candidate, String reference);
}
