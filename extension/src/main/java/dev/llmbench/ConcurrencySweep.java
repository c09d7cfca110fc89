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
 * Runs the annotated method once per concurrency level, each as its own test named like {@code C=8}.
 * Each level first warms up (not counted), then keeps exactly C requests in flight until its requests
 * are done (closed loop). The method receives the level's {@link SweepLevelResult}.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 2, 4, 8, 16, 32})
 * void throughput(SweepLevelResult r) {
 *   assertThat(r).hasNoErrors().outputTokensPerSecond().isGreaterThan(250);
 * }
 * }</pre>
 *
 * <p>With several {@link #maxTokens()} or {@link #inputTokens()} values, every combination is a level.
 * The configuration parameters {@code llmbench.sweep.levels} (e.g. {@code 1,4,16}) and
 * {@code llmbench.sweep.requests} override {@link #value()} and {@link #requests()} for every sweep.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(ConcurrencySweepExtension.class)
@Execution(ExecutionMode.SAME_THREAD) // levels must never overlap: they would measure each other
public @interface ConcurrencySweep {

  /** Placeholder for the level's concurrency in {@link #name()}. */
  String CONCURRENCY_PLACEHOLDER = "{concurrency}";
  /** Placeholder for the level's {@code max_tokens}. */
  String MAX_TOKENS_PLACEHOLDER = "{max_tokens}";
  /** Placeholder for the level's synthetic input length. */
  String INPUT_TOKENS_PLACEHOLDER = "{input_tokens}";
  /** Placeholder for the 1-based index of the level. */
  String INDEX_PLACEHOLDER = "{index}";
  /** The name used when only the concurrency varies. */
  String DEFAULT_NAME = "C={concurrency}";

  /** Concurrency levels, each positive and distinct, run in this order. */
  int[] value();

  /** Requests per level; 0 for {@code max(10, 2 x C)}, enough for p90 (p99 needs 100). */
  int requests() default 0;

  /** Bound each level by time instead ({@code 30s}, {@code 2m}); requests in flight get {@link #grace()} to finish. */
  String duration() default "";

  /** How long requests in flight may finish after a duration-bounded level stops sending. */
  String grace() default "30s";

  /** {@code max_tokens} per request; several values cross with the levels. */
  int[] maxTokens() default {128};

  /** Synthetic prompts of about this many tokens instead of a prompt set; several values cross with the levels. */
  int[] inputTokens() default {};

  /** One prompt for every request; empty for {@link #prompts()}. */
  String prompt() default "";

  /** {@code builtin}, or the path of a JSONL file of {@code {"prompt": ...}} or {@code {"messages": [...]}} lines. */
  String prompts() default "builtin";

  /** Send {@code ignore_eos} so that every request generates exactly {@code max_tokens}, as benchmarks do. */
  boolean ignoreEos() default true;

  /** {@code temperature}; negative for the server's default. */
  double temperature() default -1;

  /** Warm-up requests before each level, not counted; -1 for C of them. */
  int warmupRequests() default -1;

  /** Seed of the prompt order and synthetic prompts. */
  long seed() default 42;

  /** Percentiles to report, e.g. {@code {50, 90, 95, 99, 99.9}}. */
  double[] percentiles() default {50, 90, 99};

  /**
   * Adaptive mode when above 0: keep adding requests until the 95% interval of output throughput is within
   * this relative half-width (0.05 = ±5%) and every percentile has the samples it needs, or a cap is hit.
   */
  double targetCiHalfWidth() default 0;

  /** Adaptive mode's request cap; 0 for 1000. */
  int maxRequests() default 0;

  /** Adaptive mode's time cap per level. */
  String maxDuration() default "5m";

  /** Display name of each level; see the placeholders. Empty for {@link #DEFAULT_NAME}, plus the crossed settings. */
  String name() default "";
}
