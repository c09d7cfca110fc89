package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * How much of a reply's text a trace keeps: all of it for a smoke prompt the user reads, a bounded excerpt
 * for a load request (reports show samples; metrics need only counts), or none.
 *
 * @param maxChars characters kept of the content and, apart, of the reasoning
 */
@API(status = INTERNAL)
public record TextCapture(int maxChars) {

  public static final TextCapture FULL = new TextCapture(Integer.MAX_VALUE);
  public static final TextCapture NONE = new TextCapture(0);
  /** The default for load requests: enough for a sample in a report. */
  public static final TextCapture EXCERPT = new TextCapture(200);

  public TextCapture {
    if (maxChars < 0) throw new IllegalArgumentException("maxChars must not be negative: " + maxChars);
  }

  public static TextCapture excerpt(int maxChars) {
    return new TextCapture(maxChars);
  }

  public boolean isFull() {
    return maxChars == Integer.MAX_VALUE;
  }
}
