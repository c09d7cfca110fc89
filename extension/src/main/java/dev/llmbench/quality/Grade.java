package dev.llmbench.quality;

/** What a grader makes of one reply: right, wrong, or no answer found in it (counted apart from wrong). */
enum Grade {
  CORRECT, WRONG, UNPARSED;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
