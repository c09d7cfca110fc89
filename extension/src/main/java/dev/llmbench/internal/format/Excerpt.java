package dev.llmbench.internal.format;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** Server bodies, prompts and replies shortened for one-line messages. */
@API(status = INTERNAL)
public final class Excerpt {

  private Excerpt() {}

  /** {@code text} with whitespace folded to single spaces, cut to {@code max} characters with an ellipsis. */
  public static String of(String text, int max) {
    if (text == null) return "";
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= max ? flat : flat.substring(0, max) + "…";
  }
}
