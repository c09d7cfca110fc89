package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.WarmupReport;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * The warm-up before each level of a sweep: requests sent through the level's own load loop and not
 * counted, so that the first measured request does not pay for a cold path. On the sweep method, or on
 * its class or an enclosing class. A closed loop's warm-up goes on, up to {@value WarmupReport#MAX_ROUNDS}
 * rounds, until it has had C requests in flight together; what it did is the level's
 * {@link SweepLevelResult#warmup()}, and the level warns when it failed or never reached C.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Warmup {

  /**
   * {@return warm-up requests before each level; 0 for none; -1 for automatic: C for a closed loop, 2 for an open
   * loop (sent on the level's own arrival schedule)}
   */
  int requests() default -1;

  /**
   * {@return {@code max_tokens} of each warm-up request; -1 for the level's own, so that the warm-up runs the
   * level's batch for as long as a measured request does (at every sequence length it will reach)}
   */
  int maxTokens() default -1;
}
