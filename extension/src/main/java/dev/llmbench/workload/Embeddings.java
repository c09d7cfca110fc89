package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Metric;
import dev.llmbench.Workload;
import dev.llmbench.datasets.Dataset;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * The sweep's requests go to {@code POST /v1/embeddings}, each with {@link #batchSize()} inputs, instead of
 * generating: the inputs are the prompts {@link Workload} or {@link Dataset} would have sent ({@code inputTokens}
 * sets their length). A level reports its latency ({@link Metric#E2E_LATENCY}), inputs per second
 * ({@link Metric#INPUT_THROUGHPUT}), tokens per second ({@link Metric#TOTAL_TOKEN_THROUGHPUT}) and requests per
 * second, with the same statistics and assertions as any level; it has no streaming figures (TTFT, ITL, TPOT).
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 4, 16})
 * @Embeddings(batchSize = 8)
 * @Workload(inputTokens = 256)
 * void search(SweepLevelResult r) { ... }
 * }</pre>
 *
 * The endpoint's readiness wait sends one input in place of its 1-token completion (beside it, in a class that also
 * generates), so a server that only embeds is ready for the sweep; a server without the route (llama-server without
 * {@code --embeddings}, a vLLM that serves a generative model) fails each level before its load with what to start
 * it with.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.2")
public @interface Embeddings {

  /** {@return inputs per request, at least 1} */
  int batchSize() default 1;
}
