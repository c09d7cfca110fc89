package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * How much each level of a sweep measures, and which percentiles it reports. On the sweep method, or on
 * its class or an enclosing class. A level stops after a number of requests (the default), after a
 * duration, or adaptively once its throughput is known well enough.
 *
 * <pre>{@code
 * @ConcurrencySweep({8, 32})
 * @Measurement(duration = "2m", grace = "30s", percentiles = {50, 99})
 * void soak(SweepLevelResult r) { ... }
 * }</pre>
 *
 * <p>The settings {@code llmbench.sweep.requests} and {@code llmbench.sweep.rounds} override {@link #requests()}
 * and {@link #rounds()} for every sweep (a setting wins over both attributes).
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Measurement {

  /**
   * Requests per level; 0 for automatic: for a closed loop whole rounds of C, at least {@value #MIN_ROUNDS}
   * and at least 10 requests ({@code C x max(3, ceil(10 / C))}), then, on a real server, on until the 95% interval of
   * output throughput is within ±5% (the setting {@code llmbench.sweep.target-ci-half-width}), up to
   * {@link #maxRequests()} or a minute: a gate resting on the level holds from one run to the next (docs/metrics.md);
   * for an open loop {@code max(10, 10 s x rate)}.
   * p90 needs 10 samples, p99 needs 100. A closed-loop count that is not a multiple of C ends with a partial
   * round, run with fewer than C in flight, and the level says so.
   *
   * @return the requests per level, or 0
   */
  int requests() default 0;

  /** The fewest whole rounds an automatic closed-loop level runs: one to ramp up, one to drain, one steady. */
  int MIN_ROUNDS = 3;

  /**
   * {@return closed loop only: whole rounds of C requests per level ({@code requests = rounds x C}), so every level
   * runs with C in flight from its first request to its last round; 0 for {@link #requests()}} Set one of
   * the two, not both.
   */
  int rounds() default 0;

  /**
   * {@return how long each level sends, instead of a count ({@code 30s}, {@code 2m}); requests in flight get
   * {@link #grace()} to finish}
   */
  String duration() default "";

  /** {@return how long requests in flight may finish after a duration-bounded level stops sending} */
  String grace() default "30s";

  /**
   * {@return the target of adaptive mode, which runs when it is above 0: it keeps adding requests until the 95%
   * interval of output throughput is within this relative half-width (0.05 = ±5%) and every percentile has the
   * samples it needs, or a cap is hit}
   */
  double targetCiHalfWidth() default 0;

  /** {@return adaptive mode's request cap, and a closed-loop level of automatic size's; 0 for 1000} */
  int maxRequests() default 0;

  /** {@return adaptive mode's time cap per level} */
  String maxDuration() default "5m";

  /**
   * Percentiles to report, e.g. {@code {50, 90, 95, 99, 99.9}}.
   *
   * @return the percentiles
   */
  double[] percentiles() default {50, 90, 99};
}
