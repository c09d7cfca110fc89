package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Every request of a sweep offers these tools ({@code tools}, {@code tool_choice}), as an agent's requests do; a
 * dataset row with its own {@code tools} keeps them. Each reply's tool calls are checked: their arguments must
 * parse as a JSON object and match the tool's {@code parameters} schema. The level reports the share that did not
 * ({@link Metric#UNPARSED_RATE}) beside its speed, and the time to the first tool-call token
 * ({@link Metric#TOOL_CALL_TTFT}). On the sweep method, or on its class or an enclosing class.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 8})
 * @ToolCalls(file = "src/test/resources/tools.json", choice = "required")
 * void agent(SweepLevelResult r) {
 *   assertThat(r).hasUnparsedRateAtMost(0.01);
 * }
 * }</pre>
 *
 * The file is read and every schema compiled before the first request: a file that is not a JSON array of
 * OpenAI tools, or a {@code parameters} that is not a JSON Schema, fails the sweep naming the file and the field.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.2")
public @interface ToolCalls {

  /**
   * {@return a JSON file of OpenAI tools, {@code [{"type": "function", "function": {"name": ..., "parameters": {...}}}]},
   * relative to the working directory or absolute}
   */
  String file();

  /**
   * {@return {@code tool_choice}: {@code auto} (the model may answer in text instead, and such a reply is not checked),
   * {@code required} (a reply without a tool call is unparsed), {@code none}, or the name of one tool to call}
   */
  String choice() default "auto";
}
