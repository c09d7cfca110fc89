package dev.llmbench.quality;

/**
 * A graded reply.
 *
 * @param verdict correct, wrong or unparsed
 * @param answer  what the grader read as the answer ({@code 42}, {@code B}), or why it found none
 */
record Graded(Verdict verdict, String answer) {

  static Graded correct(String answer) {
    return new Graded(Verdict.CORRECT, answer);
  }

  static Graded wrong(String answer) {
    return new Graded(Verdict.WRONG, answer);
  }

  static Graded unparsed(String why) {
    return new Graded(Verdict.UNPARSED, why);
  }
}
