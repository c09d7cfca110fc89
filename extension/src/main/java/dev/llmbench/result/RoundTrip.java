package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.internal.format.Formats;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The network baseline of an endpoint: round trips of a cheap request, timed once the endpoint is ready
 * and before any level runs. Every TTFT contains one such round trip, so a TTFT close to it is network
 * time, not server time: what tells the two apart when the benchmark runs from another machine.
 *
 * @param request what was timed, e.g. {@code GET /health}
 * @param samples each round trip, in the order they were timed (a first, untimed one opened the connection)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RoundTrip(String request, List<Duration> samples) {

  /**
   * Rejects an empty list of samples, and copies it.
   *
   * @param request what was timed, e.g. {@code GET /health}
   * @param samples each round trip, in the order they were timed (a first, untimed one opened the connection)
   */
  public RoundTrip {
    if (samples.isEmpty()) throw new IllegalArgumentException("a round trip needs at least one sample");
    samples = List.copyOf(samples);
  }

  /** {@return the fastest round trip} */
  public Duration min() {
    return samples.stream().min(Duration::compareTo).orElseThrow();
  }

  /** {@return the slowest round trip} */
  public Duration max() {
    return samples.stream().max(Duration::compareTo).orElseThrow();
  }

  /** {@return the middle sample (the mean of the two middle ones for an even count): robust to one slow sample} */
  public Duration median() {
    List<Duration> sorted = samples.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : sorted.get(n / 2 - 1).plus(sorted.get(n / 2)).dividedBy(2);
  }

  /** {@code median 0.4 ms (min 0.3 ms, max 0.9 ms) over 5 × GET /health}. */
  @Override
  public String toString() {
    return "median " + Formats.duration(median()) + " (min " + Formats.duration(min()) + ", max " + Formats.duration(max())
        + ") over " + samples.size() + " × " + request;
  }
}
