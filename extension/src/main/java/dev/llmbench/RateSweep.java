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
 * Runs the annotated method once per request rate, each as its own test named like {@code rate=4/s}:
 * open-loop load, where requests arrive on a schedule whatever the server's speed, as
 * {@code vllm bench serve --request-rate} sends them. Gaps between arrivals are drawn from
 * Gamma(shape = {@link #burstiness()}, scale = 1 / (rate x burstiness)); burstiness 1 is Poisson.
 *
 * <pre>{@code
 * @RateSweep({1, 2, 4, 8})
 * void underLoad(SweepLevelResult r) {
 *   assertThat(r).hasNoErrors().ttft().p50().isLessThan(Duration.ofSeconds(1));
 * }
 * }</pre>
 *
 * <p>{@link Workload}, {@link Measurement}, {@link Warmup} and {@link Slo} apply as on
 * {@link ConcurrencySweep}. The setting {@code llmbench.sweep.rates} (e.g. {@code 0.5,2,8}) overrides
 * {@link #value()} for every rate sweep.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(SweepExtension.class)
@Execution(ExecutionMode.SAME_THREAD)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface RateSweep {

  /** Placeholder for the level's rate in {@link #name()}. */
  String RATE_PLACEHOLDER = "{rate}";
  /** The name used when only the rate varies. */
  String DEFAULT_NAME = "rate={rate}/s";

  /** {@return request rates in requests per second, each positive and distinct, run in this order} */
  double[] value();

  /** {@return gamma shape of the arrival gaps: 1 is Poisson, below 1 burstier, above 1 more even} */
  double burstiness() default 1.0;

  /**
   * {@return at most this many requests in flight (a due request waits for a slot; the wait is its queue time); 0 for no cap}
   */
  int maxConcurrency() default 0;

  /**
   * {@return display name of each level; {@value #RATE_PLACEHOLDER} and the placeholders of {@link ConcurrencySweep#name()}}
   */
  String name() default "";
}
