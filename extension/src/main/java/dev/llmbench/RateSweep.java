package dev.llmbench;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
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
 *   assertThat(r).hasNoErrors().ttftP50().isLessThan(Duration.ofSeconds(1));
 * }
 * }</pre>
 *
 * <p>Every other attribute means what it means on {@link ConcurrencySweep}. The configuration
 * parameter {@code llmbench.sweep.rates} (e.g. {@code 0.5,2,8}) overrides {@link #value()}.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(RateSweepExtension.class)
@Execution(ExecutionMode.SAME_THREAD)
public @interface RateSweep {

  /** Placeholder for the level's rate in {@link #name()}. */
  String RATE_PLACEHOLDER = "{rate}";
  /** The name used when only the rate varies. */
  String DEFAULT_NAME = "rate={rate}/s";

  /** Request rates in requests per second, each positive and distinct, run in this order. */
  double[] value();

  /** Gamma shape of the arrival gaps: 1 is Poisson, below 1 burstier, above 1 more even. */
  double burstiness() default 1.0;

  /** At most this many requests in flight (a due request waits for a slot; the wait is its queue time); 0 for no cap. */
  int maxConcurrency() default 0;

  /** Requests per level; 0 for {@code max(10, 10 s x rate)}. */
  int requests() default 0;

  String duration() default "";

  String grace() default "30s";

  int[] maxTokens() default {128};

  int[] inputTokens() default {};

  String prompt() default "";

  String prompts() default "builtin";

  boolean ignoreEos() default true;

  double temperature() default -1;

  /** Warm-up requests before each level (closed loop, not counted); -1 for 2. */
  int warmupRequests() default -1;

  /** Seed of the prompt order, synthetic prompts and arrival times. */
  long seed() default 42;

  double[] percentiles() default {50, 90, 99};

  double targetCiHalfWidth() default 0;

  int maxRequests() default 0;

  String maxDuration() default "5m";

  /** Display name of each level; {@code {rate}}, {@code {max_tokens}}, {@code {input_tokens}}, {@code {index}}. */
  String name() default "";
}
