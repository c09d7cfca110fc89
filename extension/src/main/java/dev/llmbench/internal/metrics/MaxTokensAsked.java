package dev.llmbench.internal.metrics;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.client.RequestTrace;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * The {@code max_tokens} a batch of requests (a level, its warm-up) asked, as their bodies carried it: one value, or
 * a summary when rows, a trace or a distribution gave each request its own. A level reports this, not its
 * workload's setting, which a row's own length overrides.
 *
 * @param min      the least asked
 * @param max      the most asked
 * @param mean     the mean asked
 * @param requests requests that asked a {@code max_tokens}
 */
@API(status = INTERNAL)
public record MaxTokensAsked(int min, int max, double mean, int requests) {

  /** What {@code traces} asked; empty when none asked a {@code max_tokens} (the server's default, embeddings). */
  public static Optional<MaxTokensAsked> of(Collection<RequestTrace> traces) {
    int min = Integer.MAX_VALUE;
    int max = 0;
    long sum = 0;
    int n = 0;
    for (RequestTrace t : traces) {
      int asked = t.maxTokensAsked();
      if (asked <= 0) continue;
      min = Math.min(min, asked);
      max = Math.max(max, asked);
      sum += asked;
      n++;
    }
    return n == 0 ? Optional.empty() : Optional.of(new MaxTokensAsked(min, max, (double) sum / n, n));
  }

  /** What a level's warm-up asked, carried beside the level (its {@code WarmupReport} has room for one value). */
  public record OfWarmup(MaxTokensAsked asked) {}

  /** Of a level's requests. */
  public static Optional<MaxTokensAsked> ofMetrics(Collection<RequestMetrics> requests) {
    return of(requests.stream().map(RequestMetrics::trace).toList());
  }

  /** Whether every request asked the same. */
  public boolean single() {
    return min == max;
  }

  /** The one value every request asked, when they did. */
  public OptionalInt value() {
    return single() ? OptionalInt.of(min) : OptionalInt.empty();
  }

  /** {@code 128}, or {@code 14-130 (mean 61.3)}. */
  @Override
  public String toString() {
    return single() ? Integer.toString(min) : String.format(Locale.ROOT, "%d-%d (mean %.1f)", min, max, mean);
  }

  /** {@code {"min": 14, "mean": 61.3, "max": 130, "requests": 40}}. */
  public ObjectNode json() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("min", min);
    n.put("mean", Math.round(mean * 10) / 10.0);
    n.put("max", max);
    n.put("requests", requests);
    return n;
  }
}
