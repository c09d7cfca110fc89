package dev.llmbench.capacity;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.Slo;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.deployments.Deployment;
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
 * Finds the highest concurrency (closed loop) or request rate (open loop) at which the {@link Slo} holds:
 * how many concurrent users the deployment serves within its objectives. Each probe is a level, measured
 * as a sweep's is and shown as a test ({@code probe 3: C=12}); which load the next probe tries depends on
 * whether the last one met the SLO (bisection between the bounds, geometric, so that {@code 1..256} takes
 * about as many probes as {@code 16..32}). The search ends within {@link #step()}, then the method runs
 * once, as the test {@code capacity: C=12}, with the {@link Capacity} injected: the answer and the levels
 * either side as evidence.
 *
 * <pre>{@code
 * @CapacitySearch(concurrency = {1, 64})
 * @Slo(ttft = "2s", tpot = "50ms", percentile = 90)
 * void users(Capacity capacity) {
 *   assertThat(capacity).isAtLeast(16);
 * }
 * }</pre>
 *
 * <p>A level meets the SLO as {@code assertThat(level).meetsSlo()} judges it. {@link Workload},
 * {@link Measurement} and {@link Warmup} apply as to a sweep (one workload); with {@link Deployment}s,
 * each deployment is searched in turn.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(CapacityExtension.class)
@Execution(ExecutionMode.SAME_THREAD)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface CapacitySearch {

  /** {@return the concurrency range {@code {low, high}} of a closed-loop search} */
  int[] concurrency() default {};

  /** {@return the request rate range {@code {low, high}} in requests per second of an open-loop search} */
  double[] rate() default {};

  /** {@return the answer's precision: 0 for 1 request in flight, or a sixteenth of the rate range} */
  double step() default 0;

  /** {@return gamma shape of an open loop's arrival gaps, as {@link RateSweep#burstiness()}} */
  double burstiness() default 1.0;

  /** {@return an open loop's cap on requests in flight, as {@link RateSweep#maxConcurrency()}; 0 for none} */
  int maxConcurrency() default 0;
}
