package dev.llmbench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.datasets.Dataset;
import dev.llmbench.workload.ExactInputTokens;
import dev.llmbench.workload.SharedPrefix;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * What every request of a sweep sends: its prompts and how many tokens it asks for. On the sweep method,
 * or on its class or an enclosing class for every sweep inside; without it, the defaults below apply.
 * Several {@link #maxTokens()} or {@link #inputTokens()} values cross with the sweep's levels, and each
 * combination (a workload) is its own level, grouped as one curve in tables, charts and the analysis.
 * {@link #inputLength()} and {@link #outputLength()} draw each request's lengths from a distribution instead;
 * a {@link Dataset} beside it gives the prompts from a file, and this annotation how they are sent.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 4, 16})
 * @Workload(maxTokens = {128, 1024}, inputTokens = 512)
 * void longAndShortAnswers(SweepLevelResult r) { ... }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Workload {

  /** Placeholder for the level's {@code max_tokens} in a sweep's {@code name}. */
  String MAX_TOKENS_PLACEHOLDER = "{max_tokens}";
  /** Placeholder for the level's synthetic input length in a sweep's {@code name}. */
  String INPUT_TOKENS_PLACEHOLDER = "{input_tokens}";
  /** Placeholder for the 1-based index of the level in a sweep's {@code name}. */
  String INDEX_PLACEHOLDER = "{index}";

  /** {@return {@code max_tokens} per request; several values cross with the levels} */
  int[] maxTokens() default {128};

  /**
   * {@return synthetic prompts of about this many tokens (one word each) instead of a prompt set; several values cross
   * with the levels} With {@link ExactInputTokens} beside it, exactly this many prompt tokens on the server.
   */
  int[] inputTokens() default {};

  /**
   * Synthetic prompts whose lengths follow a distribution, instead of {@link #inputTokens()}: {@code 512},
   * {@code uniform(64,512)}, {@code normal(480,240,min=1,max=2048)}, {@code lognormal(512,400,max=8192)} (mean,
   * median) or {@code empirical(128:50,512:30,2048:20)} (length:weight); drawn per request from {@link #seed()}.
   * The setting {@code llmbench.workload.input-length} overrides it.
   *
   * @return the distribution, or empty for {@link #inputTokens()}
   */
  String inputLength() default "";

  /**
   * Each request's {@code max_tokens} drawn from a distribution (the syntax of {@link #inputLength()}) instead
   * of {@link #maxTokens()}. The setting {@code llmbench.workload.output-length} overrides it.
   *
   * @return the distribution, or empty for {@link #maxTokens()}
   */
  String outputLength() default "";

  /** {@return one prompt for every request; empty for {@link #prompts()}} */
  String prompt() default "";

  /**
   * {@return {@code builtin}, or the path of a JSONL file of {@code {"prompt": ...}} or {@code {"messages": [...]}} lines}
   */
  String prompts() default "builtin";

  /**
   * {@return whether requests send {@code ignore_eos}, so that each generates exactly {@code max_tokens}, as
   * benchmarks do}
   */
  boolean ignoreEos() default true;

  /** {@return {@code temperature}; negative for the server's default} */
  double temperature() default -1;

  /** {@return seed of the prompt order, the synthetic prompts and an open loop's arrival times} */
  long seed() default 42;

  /**
   * {@return whether requests may be served from the server's prefix cache: by default ({@link PrefixCache#AVOID})
   * every prompt begins with a marker unique to the run, the level and the request, so no level reads an
   * earlier level's (or the warm-up's) cached prompts and levels stay comparable (a {@link SharedPrefix}
   * workload's marker starts its question, after the shared system prompt); {@link PrefixCache#REUSE}
   * sends the prompts as they are, to measure with reuse on purpose}
   */
  PrefixCache prefixCache() default PrefixCache.AVOID;

  /** How prompts meet the server's prefix cache (vLLM and SGLang prefix caching, llama.cpp's prompt cache). */
  enum PrefixCache {
    /**
     * Each prompt's first message (and, for the completions API, its last) starts with 8 hex digits unique
     * to the run, level and request: vLLM hashes prompts in blocks of 16 tokens, each chained to the one
     * before, and llama.cpp reuses the longest common prefix, so a difference in the first tokens leaves
     * nothing to reuse beyond what a chat template puts before the message.
     */
    AVOID,
    /** Prompts as they are: repeated prompts, and prompts sharing a prefix, may be served from the cache. */
    REUSE
  }
}
