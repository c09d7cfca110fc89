package dev.llmbench.deployments;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * One serve flag of a parameter matrix: the class's launched server ({@code @LaunchServer}, {@code @LaunchContainer})
 * is started once per combination of every {@code @ServeParam}'s values, as {@code vllm bench sweep serve} restarts
 * {@code vllm serve} for each {@code --serve-params} combination. Each combination is a candidate, compared with the
 * others as {@link Deployment}s are, and measured whole (every level of the sweep) before the next one starts.
 *
 * <pre>{@code
 * @LaunchServer(command = {"vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--port", "8131"})
 * @ServeParam(name = "max-num-seqs", values = {"64", "256"})
 * @ServeParam(name = "enable-prefix-caching", values = {"true", "false"})
 * class WhichScheduler { ... }   // 4 candidates: max-num-seqs-64_enable-prefix-caching, ..._no-enable-prefix-caching
 * }</pre>
 *
 * <p>The combinations are crossed in declared order, the first parameter varying slowest. How a value reaches the
 * command: {@code name} is a flag ({@code max-num-seqs} is {@code --max-num-seqs}; {@code -np} stays {@code -np}),
 * replaced where the command has it, else appended; {@code true} is the flag alone, {@code false} its {@code --no-}
 * form, an empty value leaves it out; a command that holds {@code ${name}} gets the value there instead.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ServeParams.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface ServeParam {

  /** {@return the flag ({@code max-num-seqs}, {@code --max-num-seqs}, {@code -np}) or the command's {@code ${name}}} */
  String name();

  /** {@return the values crossed, in order} */
  String[] values();

  /**
   * {@return what each value is called in the candidate's name, one per value ({@code F16}, {@code Q8_0}); empty for
   * {@code <flag>-<value>}}
   */
  String[] labels() default {};
}
