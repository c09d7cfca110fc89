package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** What a grader makes of one reply: right, wrong, or no answer found in it (counted apart from wrong). */
@API(status = INTERNAL)
public enum Grade {
  CORRECT, WRONG, UNPARSED;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
