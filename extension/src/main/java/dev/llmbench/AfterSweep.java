package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Assertions on a whole sweep, run once after its last level and shown as a test of their own, the
 * sweep's last invocation ({@code scales (after the sweep)}). The method takes the sweep's
 * {@link SweepResult}: every level, and the analysis's findings across them.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 2, 4, 8, 16, 32})
 * void throughput(SweepLevelResult r) { ... }
 *
 * @AfterSweep("throughput")
 * void scales(SweepResult sweep) {
 *   assertThat(sweep).hasScalingEfficiencyAtLeast(8, 0.8).hasNoThroughputDrop()
 *       .hasNoFindings(FindingKind.COLD_START, FindingKind.CLIENT_BOUND);
 * }
 * }</pre>
 *
 * <p>It runs when the whole sweep runs (not for one level picked alone), over the levels that ran, after the
 * sweep's reports are written.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@API(status = EXPERIMENTAL, since = "0.1")
public @interface AfterSweep {

  /** {@return the sweep method's name; empty when its class declares exactly one sweep} */
  String value() default "";
}
