package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.format.Formats;
import java.time.Duration;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Where a running level stands, for a progress line: {@code C=32: 1m30s in, 812 done (3 failed), 32 in
 * flight, 733.7 tok/s so far; 1216 of 2048 requests to go}.
 *
 * @param elapsed      since the level started measuring
 * @param done         requests completed, failed ones included
 * @param failed       requests that failed
 * @param inFlight     requests sent and not yet completed
 * @param outputTokens output tokens of the completed requests
 * @param remaining    what is left of the level's budget, in words
 */
@API(status = INTERNAL)
public record LevelProgress(String label, Duration elapsed, int done, int failed, int inFlight, long outputTokens,
    String remaining) {

  /** Output tokens of completed requests over the time so far: a lower bound while streams are open. */
  public double tokensPerSecond() {
    return elapsed.isZero() ? 0 : outputTokens * 1e9 / elapsed.toNanos();
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s: %s in, %d done (%d failed), %d in flight, %.1f tok/s so far; %s", label,
        Formats.duration(elapsed), done, failed, inFlight, tokensPerSecond(), remaining);
  }
}
