package dev.llmbench.quality;

/**
 * A graded reply.
 *
 * @param verdict correct, wrong or unparsed
 * @param answer  what the grader read as the answer ({@code 42}, {@code B}), or why it found none
 */
record Graded(Grade verdict, String answer) {

  static Graded correct(String answer) {
    return new Graded(Grade.CORRECT, answer);
  }

  static Graded wrong(String answer) {
    return new Graded(Grade.WRONG, answer);
  }

  static Graded unparsed(String why) {
    return new Graded(Grade.UNPARSED, why);
  }
}
