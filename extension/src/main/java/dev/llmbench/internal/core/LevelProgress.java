package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.format.Formats;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Where a running level stands, for a progress line: {@code C=32: 812 of 2048 requests done (809 ok, 3 failed:
 * HTTP 503 3), 32 in flight, 1m30s in, about 2m17s left; 733.7 tok/s so far; last 10.0 s: TTFT p50 120.4 ms,
 * TPOT p50 41.0 ms}.
 *
 * @param elapsed      since the level started measuring
 * @param done         requests completed, failed ones included
 * @param failedByKind requests that failed, by kind ({@code HTTP 503}, {@code TIMEOUT}, ...)
 * @param inFlight     requests sent and not yet completed
 * @param outputTokens output tokens of the completed requests
 * @param doneOf      what has been done of the level's budget, in words: {@code 812 of 2048 requests done}
 * @param left         what is left of it, in words: {@code about 2m17s left}, {@code 12.0 s left}
 * @param rolling      the window of {@code ttft} and {@code tpot}: requests that completed within it
 * @param ttft         median TTFT of the successful requests that completed in the last {@code rolling}
 * @param tpot         median TPOT of the same requests
 */
@API(status = INTERNAL)
public record LevelProgress(String label, Duration elapsed, int done, Map<String, Integer> failedByKind, int inFlight,
    long outputTokens, String doneOf, String left, Duration rolling, Optional<Duration> ttft, Optional<Duration> tpot) {

  public LevelProgress {
    failedByKind = Map.copyOf(failedByKind);
  }

  public int failed() {
    return failedByKind.values().stream().mapToInt(Integer::intValue).sum();
  }

  public int ok() {
    return done - failed();
  }

  /** Output tokens of completed requests over the time so far: a lower bound while streams are open. */
  public double tokensPerSecond() {
    return elapsed.isZero() ? 0 : outputTokens * 1e9 / elapsed.toNanos();
  }

  @Override
  public String toString() {
    String failures = failedByKind.isEmpty() ? "" : ": " + new TreeMap<>(failedByKind).entrySet().stream()
        .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    String recent = ttft.isEmpty() && tpot.isEmpty() ? "no request completed in the last " + Formats.duration(rolling)
        : "last " + Formats.duration(rolling) + ": TTFT p50 " + ttft.map(Formats::duration).orElse("-") + ", TPOT p50 "
            + tpot.map(Formats::duration).orElse("-");
    return String.format(Locale.ROOT, "%s: %s (%d ok, %d failed%s), %d in flight, %s in, %s; %.1f tok/s so far; %s", label,
        doneOf, ok(), failed(), failures, inFlight, Formats.duration(elapsed), left, tokensPerSecond(), recent);
  }
}
