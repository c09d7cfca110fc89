package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * One streamed message that carried {@code choices}, stamped with {@link System#nanoTime()} on arrival.
 *
 * @param arrivalNanos monotonic clock when the event was parsed
 * @param content      content delta (empty if none)
 * @param reasoning    reasoning delta, from {@code reasoning_content} or {@code reasoning} (empty if none)
 */
@API(status = INTERNAL)
public record Chunk(long arrivalNanos, String content, String reasoning) {

  /** A role-only or finish-only chunk carries no token, and so never counts for TTFT or ITL. */
  public boolean hasToken() {
    return !content.isEmpty() || !reasoning.isEmpty();
  }

  public boolean hasContent() {
    return !content.isEmpty();
  }
}
