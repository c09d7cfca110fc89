package dev.llmbench.datasets;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.Workload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * The prompts of a sweep from a dataset file, as {@code vllm bench serve --dataset-name}, AIPerf
 * {@code --custom-dataset-type} and guidellm {@code --data} read them. On the sweep method, or on its class or
 * an enclosing class for every sweep inside. {@link Workload} still says how each request is sent
 * ({@code maxTokens} for rows without their own length, {@code ignoreEos}, {@code temperature}, {@code seed},
 * {@code prefixCache}); a {@code @Dataset} replaces its {@code prompt}, {@code prompts} and input lengths.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 4, 16})
 * @Dataset(path = "src/test/resources/sharegpt.json", format = Dataset.Format.SHAREGPT, rows = 200)
 * void ourTraffic(SweepLevelResult r) { ... }
 * }</pre>
 *
 * The file is read, streamed, before the first request: a row that is not of the format fails the sweep
 * with the file, line and field, and what would be accepted. Each level reports the file, the rows it
 * sent and their range, and the requested and actual input and output lengths.
 * {@code docs/workloads.md} lists every format's fields and the peers' names for them.
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Dataset {

  /** {@return the file, relative to the working directory (a module's folder under Maven) or absolute} */
  String path();

  /** {@return what the file holds} */
  Format format();

  /** {@return how many rows to send from (requests cycle through them); 0 for every row of the file} */
  int rows() default 0;

  /** {@return which rows: the first {@link #rows()} of the file, or a seeded random sample of the whole file} */
  Sample sample() default Sample.FIRST;

  /**
   * {@return each request's {@code max_tokens}: the row's own (a ShareGPT reply's length, {@code max_tokens},
   * {@code output_tokens}) where it has one, else the {@link Workload}'s; or always the {@link Workload}'s
   * ({@code maxTokens} or {@code outputLength}), as vLLM's {@code --sharegpt-output-len} fixes it}
   */
  OutputLength outputLength() default OutputLength.FROM_ROWS;

  /**
   * {@return the length filter, ShareGPT only, as vLLM's: conversations whose prompt or reply is shorter than
   * this many tokens are skipped (the reply not checked when the output length is fixed); 0 for none} Lengths
   * are estimated from the text at 4 characters a token.
   */
  int minTokens() default 4;

  /**
   * {@return the length filter, ShareGPT only, as vLLM's: conversations whose prompt is longer than this are
   * skipped; 0 for no bound}
   */
  int maxInputTokens() default 1024;

  /**
   * {@return the length filter, ShareGPT only, as vLLM's: conversations whose prompt and reply together are
   * longer are skipped; 0 for no bound}
   */
  int maxTotalTokens() default 2048;

  /** Dataset formats; {@code docs/workloads.md} has each one's fields. */
  enum Format {
    /**
     * A JSON array of {@code {"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}]}}:
     * the first human turn is the prompt, the reply after it gives the output length (vLLM {@code sharegpt}).
     */
    SHAREGPT,
    /**
     * JSON Lines of chat-completions bodies: {@code messages}, optionally {@code max_tokens}, {@code temperature},
     * {@code tools}, {@code response_format}, which each request sends as its row has them.
     */
    OPENAI_CHAT,
    /** JSON Lines of {@code {"prompt": "...", "output_tokens": 128}} (vLLM {@code custom}; {@code output_tokens} optional). */
    VLLM_CUSTOM
  }

  /** Which rows of the file are sent. */
  enum Sample {
    /** The first {@link #rows()} rows, in file order; the file is read no further. */
    FIRST,
    /** A uniform sample of {@link #rows()} rows of the whole file, seeded by {@link Workload#seed()}, in a seeded order. */
    RANDOM
  }

  /** Where each request's {@code max_tokens} comes from. */
  enum OutputLength {
    /** The row's own length where it has one, else the {@link Workload}'s. */
    FROM_ROWS,
    /** Always the {@link Workload}'s {@code maxTokens} (or {@code outputLength}). */
    WORKLOAD
  }
}
