package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * An eval as a sweep's requests: every level sends each item once, at the level's concurrency or rate, and
 * grades each reply correct, wrong or unparsed, so that accuracy is measured under load beside the level's
 * speed, and deployments compared item by item on the same questions ({@link Quality}). The items come from
 * a set LLMBench generates itself ({@link #generated()}) or from a JSON Lines file ({@link #path()} in one of
 * the {@link Format}s); either is read and checked whole before the first request, a bad row failing the
 * sweep with its file, line and field. docs/quality.md lists the formats, the graders and the statistics.
 *
 * <pre>{@code
 * @ConcurrencySweep({1, 32})
 * @QualityEval(generated = QualityEval.Generated.EVERY_GRADER, items = 120)
 * void quality(SweepLevelResult level, Quality quality) {
 *   assertThat(quality).deployment("int4").recoversAtLeast(0.97).of("fp8");
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface QualityEval {

  /** The sets LLMBench generates, with answers it computes. */
  enum Generated {
    /** No generated set: the items come from {@link QualityEval#path()}. */
    NONE,
    /** GSM8K-style arithmetic word problems, graded by the last number (after {@code ####}). */
    ARITHMETIC,
    /** Four-option multiple choice over computed facts, graded by the answer's letter. */
    MULTIPLE_CHOICE,
    /** Exact-match string tasks (a word backwards, a number in words), graded by normalised exact match. */
    EXACT_MATCH,
    /** An item of every grader in turn: number, choice, exact, regex, contains, JSON with a schema. */
    EVERY_GRADER
  }

  /** The shapes of an eval file's rows, one JSON object a line. */
  enum Format {
    /** {@code {"question": "...", "answer": "... #### 42"}}: GSM8K's own files, graded by the last number. */
    GSM8K,
    /** {@code {"question": "...", "choices": [...], "answer": "B"}} (or a 0-based index), graded by the letter. */
    MULTIPLE_CHOICE,
    /** {@code {"prompt": "..." or "messages": [...], "expected": ..., "grader": "exact"}}: any grader, per row. */
    GENERIC
  }

  /** {@return the generated set to send, or {@code NONE} to read {@link #path()}} */
  Generated generated() default Generated.NONE;

  /** {@return the eval file (JSON Lines), relative to the working directory; empty with a generated set} */
  String path() default "";

  /** {@return the shape of the file's rows} */
  Format format() default Format.GENERIC;

  /** {@return how many items: the first N rows of the file (0: all of them), or of the generated set (0: 100)} */
  int items() default 0;

  /** {@return {@code max_tokens} of each eval request: room for the working and the answer} */
  int maxTokens() default 256;

  /** {@return how far a number may be from the expected one and still be right, where a row gives no tolerance} */
  double tolerance() default 1e-6;

  /** {@return the {@code seed} each request sends, so that sampling repeats where the server honours it} */
  long seed() default 0;

  /** {@return the {@code temperature} each request sends: 0 (greedy) unless set, whatever {@code @Workload} says} */
  double temperature() default 0;
}
