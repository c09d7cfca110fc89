package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.RateSweep;
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
 * An {@link AgentTrace}'s agents started at the trace's own times (open loop): each top-level session once, at its
 * {@code start_ms} (or AIPerf's first {@code timestamp}) divided by the level's time scale, however many are still
 * running, instead of under a {@link ConcurrencySweep}'s or {@link RateSweep}'s loads. One level per time scale.
 *
 * <pre>{@code
 * @AgentReplay(timeScale = {1, 4})
 * @AgentTrace("traces/agents.jsonl")
 * void replay(SweepLevelResult r) { ... }
 * }</pre>
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(SweepExtension.class)
@Execution(ExecutionMode.SAME_THREAD)
@API(status = EXPERIMENTAL, since = "0.2")
public @interface AgentReplay {

  /** Placeholder for the level's time scale in {@link #name()}. */
  String TIME_SCALE_PLACEHOLDER = "{time_scale}";
  /** The name used by default. */
  String DEFAULT_NAME = "agents x{time_scale}";

  /** {@return the time scales of the agents' starts, each positive and distinct: 1 as recorded, 10 ten times sooner} */
  double[] timeScale() default {1};

  /** {@return at most this many agents in flight (a due agent waits for a slot); 0 for no cap} */
  int maxConcurrency() default 0;

  /** {@return the display name of each level; {@value #TIME_SCALE_PLACEHOLDER} and the placeholders of {@link ConcurrencySweep#name()}} */
  String name() default "";
}
