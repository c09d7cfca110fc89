package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.ConfidenceInterval;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * How one deployment answered an eval at one load: each reply correct, wrong or unparsed (the grader found no
 * answer in it), counted apart, and requests that failed (no reply to grade) apart again. Accuracy is correct
 * over graded replies, with the Wilson score interval at 95% (docs/quality.md).
 *
 * @param correct  replies graded correct
 * @param wrong    replies with an answer that is not the expected one
 * @param unparsed replies in which the grader found no answer
 * @param failed   requests that failed, so had no reply to grade
 * @param interval correct / (correct + wrong + unparsed), with its 95% Wilson interval
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Accuracy(int correct, int wrong, int unparsed, int failed, ConfidenceInterval interval) {

  /** {@return the replies graded: correct, wrong and unparsed} */
  public int graded() {
    return correct + wrong + unparsed;
  }

  /** {@return the share of graded replies that were correct, 0 when none was graded} */
  public double value() {
    return interval.estimate();
  }

  /** {@return the share of graded replies the grader found no answer in} */
  public double unparsedRate() {
    return graded() == 0 ? 0 : (double) unparsed / graded();
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1f%% [%.1f%%, %.1f%%] (%d correct, %d wrong, %d unparsed of %d%s)", 100 * value(),
        100 * interval.lower(), 100 * interval.upper(), correct, wrong, unparsed, graded(),
        failed > 0 ? "; " + failed + " failed request" + (failed == 1 ? "" : "s") : "");
  }
}
