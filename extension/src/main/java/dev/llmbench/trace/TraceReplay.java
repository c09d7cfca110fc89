package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.Slo;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
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
 * Replays the method's {@link Trace} at its own timestamps, once per time scale, each as its own test named
 * like {@code trace x10}: open loop, row i sent (timestamp_i - timestamp_0) / scale after the level's start
 * whatever the server's speed, as AIPerf's {@code --fixed-schedule} and guidellm's
 * {@code --profile kind=replay,time_scale=...} send a trace. {@code 10} replays ten times faster, {@code 0.5}
 * at half speed. Each level reports its schedule lag (when each request was sent against when it was due:
 * p50, p99, max), and the analysis says when the client fell behind the trace.
 *
 * <pre>{@code
 * @TraceReplay(timeScale = {1, 10})
 * @Trace("traces/production.jsonl")
 * void replay(SweepLevelResult r) {
 *   assertThat(r).hasNoErrors().meetsSlo();
 * }
 * }</pre>
 *
 * <p>{@link Workload} ({@code ignoreEos}, {@code temperature}, {@code prefixCache}), {@link Measurement},
 * {@link Warmup} and {@link Slo} apply as on {@link RateSweep}; the trace sets each request's prompt and
 * {@code max_tokens}. The level's rate is the trace's mean rate at that scale.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(SweepExtension.class)
@Execution(ExecutionMode.SAME_THREAD)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface TraceReplay {

  /** Placeholder for the level's time scale in {@link #name()}. */
  String TIME_SCALE_PLACEHOLDER = "{time_scale}";
  /** The name used by default. */
  String DEFAULT_NAME = "trace x{time_scale}";

  /** {@return the time scales, each positive and distinct, run in this order: 1 replays as recorded, 10 ten times faster} */
  double[] timeScale() default {1};

  /** {@return at most this many requests in flight (a due request waits for a slot; the wait counts as lag and queue time); 0 for no cap} */
  int maxConcurrency() default 0;

  /** {@return the display name of each level; {@value #TIME_SCALE_PLACEHOLDER} and the placeholders of {@link ConcurrencySweep#name()}} */
  String name() default "";
}
