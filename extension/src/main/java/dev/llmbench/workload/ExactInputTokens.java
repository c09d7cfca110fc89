package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.trace.Trace;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Synthetic prompts of exactly {@link Workload#inputTokens()} prompt tokens as the server bills them, chat
 * template included (inference-perf's {@code use_chat_template}), instead of about as many words. Before
 * each level's warm-up (never inside its measured window) the prompts are aligned against the server's
 * count, by the first {@link Method} that works; each level then reports which it used and how exact it was,
 * the largest |{@code usage.prompt_tokens} - requested| of its requests ({@link SweepLevelResult#inputAlignment()}).
 * Beside a {@link Trace} it aligns the trace's blocks instead: each full block exactly its {@code blockSize}
 * tokens and each row exactly its {@code input_length}, template included, equal {@code hash_ids} still byte-equal.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 4})
 * @Workload(maxTokens = 64, inputTokens = {128, 512})
 * @ExactInputTokens
 * void prefill(SweepLevelResult r) {
 *   assertThat(r.inputAlignment().orElseThrow().largestDeviation()).hasValue(0);
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface ExactInputTokens {

  /**
   * {@return how prompt tokens are counted; {@link Method#AUTO} tries the server's route, then probes, then
   * {@link #tokenizer()}}
   */
  Method method() default Method.AUTO;

  /**
   * {@return the path of the served model's {@code tokenizer.json}, for {@link Method#TOKENIZER_JSON} (and as
   * AUTO's last resort)}
   */
  String tokenizer() default "";

  /** How a prompt's tokens are counted while aligning. */
  enum Method {
    /** The server's tokenize route, else probe requests' usage, else {@link #tokenizer()} when given. */
    AUTO,
    /**
     * The server's own: vLLM and SGLang {@code POST /tokenize} (with {@code messages} for the chat API),
     * llama-server {@code POST /apply-template} then {@code POST /tokenize}.
     */
    TOKENIZE_ROUTE,
    /** {@code usage.prompt_tokens} of probe requests of {@code max_tokens} 1, sent before the level. */
    USAGE_PROBES,
    /**
     * A local {@code tokenizer.json} through {@code ai.djl.huggingface:tokenizers} (add it to your test
     * dependencies: LLMBench declares it optional), with the chat template's tokens from one probe's usage.
     */
    TOKENIZER_JSON
  }
}
