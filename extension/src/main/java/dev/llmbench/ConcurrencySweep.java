package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.internal.junit.SweepExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Runs the annotated method once per concurrency level, each as its own test named like {@code C=8}.
 * Each level first warms up (not counted), then keeps exactly C requests in flight until its requests
 * are done (closed loop). The method receives the level's {@link SweepLevelResult}.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 2, 4, 8, 16, 32})
 * @Workload(maxTokens = 128)
 * void throughput(SweepLevelResult r) {
 *   assertThat(r).hasNoErrors().outputThroughput().isGreaterThan(250);
 * }
 * }</pre>
 *
 * <p>What each request sends is set by {@link Workload}, how much each level measures by
 * {@link Measurement}, its warm-up by {@link Warmup} and its objectives by {@link Slo}; each may sit on
 * the method, its class or an enclosing class. With several {@link Workload#maxTokens()} or
 * {@link Workload#inputTokens()} values, every combination is a level. The setting
 * {@code llmbench.sweep.levels} (e.g. {@code 1,4,16}) overrides {@link #value()} for every sweep.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(SweepExtension.class)
@Execution(ExecutionMode.SAME_THREAD) // levels must never overlap: they would measure each other
@API(status = EXPERIMENTAL, since = "0.1")
public @interface ConcurrencySweep {

  /** Placeholder for the level's concurrency in {@link #name()}. */
  String CONCURRENCY_PLACEHOLDER = "{concurrency}";
  /** The name used when only the concurrency varies. */
  String DEFAULT_NAME = "C={concurrency}";

  /** {@return concurrency levels, each positive and distinct, run in this order} */
  int[] value();

  /**
   * {@return display name of each level: {@value #CONCURRENCY_PLACEHOLDER}, {@value Workload#MAX_TOKENS_PLACEHOLDER},
   * {@value Workload#INPUT_TOKENS_PLACEHOLDER}, {@value Workload#INDEX_PLACEHOLDER}} Empty for
   * {@value #DEFAULT_NAME}, plus the crossed settings.
   */
  String name() default "";
}
