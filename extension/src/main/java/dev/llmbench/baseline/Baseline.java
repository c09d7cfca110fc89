package dev.llmbench.baseline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.result.Delta;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Compares every level of the sweep with the same level of a saved run, so that a change of driver,
 * engine or model that makes the deployment slower fails the suite. The first run (or any run with
 * {@code -Dllmbench.baseline.save=true}) saves the sweep as the baseline file; later runs compare each
 * level with it and report a {@link Delta} per figure ({@link #metrics()}, latencies at each of
 * {@link #percentiles()}) in the table, the JSON, the HTML and Allure. Changes are judged against noise: the
 * interval of each change comes from bootstrap resamples of both runs, and a level fails only when a
 * figure is worse beyond noise and by more than {@link #maxRegression()} (a latency also by more than
 * 2 ms, the run-to-run jitter of a busy client machine).
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 8, 32})
 * @Baseline(maxRegression = 0.10)     // llmbench-baselines/<class>.<method>.json, committed with the suite
 * void throughput(SweepLevelResult level, BaselineComparison vsBaseline) { ... }
 * }</pre>
 *
 * <p>{@code llmbench.baseline.vllm} compares with a {@code vllm bench serve --save-result} file (or a
 * folder of them) instead, level by concurrency or rate.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Baseline {

  /** {@return the baseline file; empty for {@code <llmbench.baseline.dir>/<class's full name>.<method>.json}} */
  String file() default "";

  /** {@return the worsening beyond noise that fails a level, a fraction: 0.10 fails a figure more than 10% worse} */
  double maxRegression() default 0.10;

  /**
   * {@return the figures compared: output throughput, TTFT, TPOT, ITL and E2E latency by default (these, not others,
   * are what a baseline file keeps)} ITL's median is the steadiest: one sample per token gap.
   */
  Metric[] metrics() default {Metric.OUTPUT_THROUGHPUT, Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2E_LATENCY};

  /**
   * {@return the percentiles latencies are compared at; the median by default, whose run-to-run spread is small}
   * A tail such as 90 is compared only where both runs have the samples it needs (10 for p90).
   */
  double[] percentiles() default {50};

  /** {@return whether a regression fails its level; false only reports it} */
  boolean failOnRegression() default true;
}
