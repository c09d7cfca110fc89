package dev.llmbench.drift;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * How far each deployment of a sweep drifts from a reference deployment on the same prompts, greedy (temperature 0),
 * without a labelled eval: the share of replies identical to the reference's, the mean number of leading tokens in
 * common, and, where the server returns {@code logprobs} with {@code top_logprobs}, per-token top-1 agreement and the
 * KL divergence of the top-k distributions (as llama.cpp's {@code llama-perplexity --kl-divergence} reports them). Every
 * level sends each prompt once; with {@code @QualityEval} on the same sweep the eval's items are the prompts, and drift
 * is shown beside accuracy. docs/drift.md says what each figure means and what it cannot.
 *
 * <pre>{@code
 * @Deployment(name = "f16", baseUrl = "http://127.0.0.1:8141")
 * @Deployment(name = "q4_0", baseUrl = "http://127.0.0.1:8143")
 * class Quantisation {
 *   @ConcurrencySweep({1, 4})
 *   @Drift(prompts = 16, maxTokens = 32)
 *   void drift(SweepLevelResult level, Drifts drift) {
 *     DriftAssert.assertThat(drift).identicalShareAtLeast(0.5).meanKldAtMost(0.1);
 *   }
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Drift {

  /** {@return the deployment every other is compared with; empty for the first one declared} */
  String reference() default "";

  /**
   * {@return a JSON Lines file of prompts, one {@code {"prompt": "..."}} or {@code {"messages": [...]}} a line,
   * relative to the working directory; empty for LLMBench's own}
   */
  String path() default "";

  /** {@return how many prompts: the first N of the file (0: all of them), or of LLMBench's own (0: 16)} */
  int prompts() default 0;

  /** {@return {@code max_tokens} of each request: the longest reply compared} */
  int maxTokens() default 32;

  /**
   * {@return {@code ignore_eos} of each request: every reply then runs to {@code maxTokens}, so that a model that stops
   * early is still compared token by token after where it would have stopped (llama-server sends no logprob for its
   * end-of-sequence token, so a reply that ends where the reference's goes on is not identical, but that position is not
   * scored)}
   */
  boolean ignoreEos() default false;

  /**
   * {@return {@code top_logprobs} each request asks for (with {@code logprobs: true}), 1 to 20; 0 asks for none, and
   * tokens are then the stream's chunks}
   */
  int topLogprobs() default 5;
}
