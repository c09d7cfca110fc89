package dev.llmbench;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Service-level objectives of a sweep (on the method) or of every sweep of a class. They define goodput
 * and SLO attainment, and {@code assertThat(result).meetsSlo()} checks them. Durations are written
 * {@code 2s}, {@code 50ms}; empty means no objective.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Slo {

  /** Time to first token, per request. */
  String ttft() default "";

  /** Time per output token, per request. */
  String tpot() default "";

  /** End-to-end latency, per request. */
  String e2eLatency() default "";

  /** The percentile each objective must hold at, and the share of requests that must meet all of them. */
  double percentile() default 99;
}
