package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.StopReason;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Service-level objectives of a sweep (on the method) or of every sweep of a class or enclosing class. They define goodput
 * and SLO attainment, and {@code assertThat(result).meetsSlo()} checks them. Durations are written
 * {@code 2s}, {@code 50ms}; empty means no objective.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Slo {

  /** {@return time to first token, per request} */
  String ttft() default "";

  /** {@return time per output token, per request} */
  String tpot() default "";

  /** {@return end-to-end latency, per request} */
  String e2eLatency() default "";

  /** {@return the percentile each objective must hold at, and the share of requests that must meet all of them} */
  double percentile() default 99;

  /**
   * {@return whether a level stops sending as soon as its SLO can no longer be met} As k6's {@code abortOnFail}: once
   * more requests have missed an objective (or failed) than the percentile allows of the level's planned
   * total, no later request can bring SLO attainment back up to the percentile. The level is reported with
   * what it measured, its stop reason {@link StopReason#SLO_UNREACHABLE}. Off by default;
   * {@code llmbench.slo.abort-on-fail} overrides it.
   */
  boolean abortOnFail() default false;
}
