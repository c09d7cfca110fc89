package dev.llmbench.agents;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * One service tier of an {@link AgentCapacity} search: the ceilings a level's requests must keep to for the tier to hold
 * at that many agents, e.g. interactive (TTFT p90 at most 1 s, TPOT p90 at most 50 ms) or background (TTFT p90 at most
 * 10 s). A ceiling of 0 is not checked.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@API(status = EXPERIMENTAL, since = "0.2")
public @interface AgentTier {

  /** {@return the tier's name, e.g. {@code interactive}} */
  String name();

  /** {@return the TTFT ceiling at {@link #percentile()}, ms; 0 for none} */
  double ttftMillis() default 0;

  /** {@return the TPOT ceiling at {@link #percentile()}, ms (50 ms: 20 tokens/s per user); 0 for none} */
  double tpotMillis() default 0;

  /** {@return the percentile the ceilings hold at, from 50 to 99.9} */
  double percentile() default 90;

  /** {@return the share of failed requests the tier allows, from 0 to 1} */
  double maxErrorRate() default 0.01;
}
