package dev.llmbench.trace;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.workload.ExactInputTokens;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * A Mooncake-style trace as a sweep's requests: a JSONL file of one request per line,
 * <pre>{"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]}</pre>
 * ({@code timestamp} in ms, lengths in tokens, one {@code hash_ids} entry per block of {@link #blockSize()}
 * tokens, {@code session_id} optional), as AIPerf ({@code --custom-dataset-type mooncake_trace}), guidellm
 * ({@code --data kind=mooncake}) and vLLM's trace datasets read it. Row i is request i: its prompt is the text
 * of its blocks, equal ids giving byte-equal blocks (so the server's prefix cache sees the reuse the trace
 * had), its {@code max_tokens} its {@code output_length}. The whole file is checked before the first request:
 * a bad row fails the sweep with its file, line and field.
 *
 * <p>With {@link TraceReplay} the rows go at the trace's own timestamps; with {@link ConcurrencySweep} or
 * {@link RateSweep} they go under each level's concurrency or rate instead, timestamps ignored. Each level
 * sends every row once unless {@link Measurement#requests()} asks for fewer (the first N). With
 * {@link ExactInputTokens} beside it, blocks are aligned to the server's tokenizer before load: each full block
 * exactly {@link #blockSize()} tokens, each row exactly its {@code input_length}, chat template included.
 *
 * <pre>{@code
 * @TraceReplay(timeScale = {1, 4})
 * @Trace("src/test/resources/conversation_trace.jsonl")
 * void replay(SweepLevelResult r) {
 *   assertThat(r).hasNoErrors().ttft().p90().isLessThan(Duration.ofSeconds(2));
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Trace {

  /** {@return the path of the trace file (JSONL), relative to the working directory} */
  String value();

  /** {@return tokens per {@code hash_ids} entry: Mooncake's traces use 512 (AIPerf {@code --isl-block-size})} */
  int blockSize() default 512;
}
