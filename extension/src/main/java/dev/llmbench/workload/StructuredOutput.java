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
 * Every request of a sweep asks for a JSON answer ({@code response_format}): {@code json_schema} with the schema
 * of {@link #schema()}, or {@code json_object} without one; a dataset row with its own {@code response_format} keeps
 * it. Each answer is checked: it must parse as JSON, and match the schema when one is given. The level reports the
 * share that did not ({@link Metric#UNPARSED_RATE}) beside its speed. On the sweep method, or on its class or an
 * enclosing class.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 8})
 * @StructuredOutput(schema = "src/test/resources/invoice.schema.json")
 * void extraction(SweepLevelResult r) {
 *   assertThat(r).hasUnparsedRateAtMost(0.0);
 * }
 * }</pre>
 *
 * The schema is read and compiled before the first request: one that is not JSON, or not a JSON Schema, fails
 * the sweep naming the file.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.2")
public @interface StructuredOutput {

  /** {@return a JSON Schema file, relative to the working directory or absolute; empty for any JSON object} */
  String schema() default "";

  /** {@return the schema's {@code name} in {@code response_format.json_schema}} */
  String name() default "reply";
}
