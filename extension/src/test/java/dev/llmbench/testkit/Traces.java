package dev.llmbench.testkit;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.RequestTrace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hand-built request traces, times in milliseconds from a level's start:
 * {@code Traces.at(0).content(20, 30, 40).usage(7, 3).end(50).build()}.
 */
public final class Traces {

  private static final long MS = 1_000_000;

  private final long startMs;
  /** Arrival (ms after the level began) and kind: 'c' content, 'r' reasoning, 'e' a choice with no token. */
  private final List<long[]> chunks = new ArrayList<>();
  private long endMs = -1;
  private Usage usage;
  private RequestFailure failure;
  private String finishReason = "length";
  private Map<String, Double> timings = Map.of();
  private int cachedTokens = -1;
  private long scheduledMs;
  private String text;
  private int embeddings;

  private Traces(long startMs) {
    this.startMs = startMs;
    this.scheduledMs = startMs;
  }

  /** A request sent {@code startMs} after the level began. */
  public static Traces at(long startMs) {
    return new Traces(startMs);
  }

  /** It was due earlier, and waited in the client (queue time). */
  public Traces scheduledAt(long ms) {
    this.scheduledMs = ms;
    return this;
  }

  /** Content chunks arriving {@code msAfterStart} after the send, one token each. */
  public Traces content(long... msAfterStart) {
    for (long ms : msAfterStart) chunks.add(new long[] {startMs + ms, 'c'});
    return this;
  }

  public Traces reasoning(long... msAfterStart) {
    for (long ms : msAfterStart) chunks.add(new long[] {startMs + ms, 'r'});
    return this;
  }

  /** A chunk carrying the reply's first tool call, {@code msAfterStart} after the send, one token. */
  public Traces toolCall(long msAfterStart) {
    chunks.add(new long[] {startMs + msAfterStart, 't'});
    return this;
  }

  /** An embeddings answer of {@code vectors} vectors. */
  public Traces embeddings(int vectors) {
    this.embeddings = vectors;
    return this;
  }

  /** A chunk with no token, such as the role-only first chunk. */
  public Traces empty(long msAfterStart) {
    chunks.add(new long[] {startMs + msAfterStart, 'e'});
    return this;
  }

  public Traces usage(int promptTokens, int completionTokens) {
    this.usage = new Usage(promptTokens, completionTokens, null);
    return this;
  }

  public Traces usage(Usage usage) {
    this.usage = usage;
    return this;
  }

  public Traces cachedTokens(int cached) {
    this.cachedTokens = cached;
    return this;
  }

  public Traces timings(Map<String, Double> timings) {
    this.timings = Map.copyOf(timings);
    return this;
  }

  public Traces finishReason(String reason) {
    this.finishReason = reason;
    return this;
  }

  public Traces failed(ErrorKind kind, int status, String message) {
    this.failure = new RequestFailure(kind, status, message);
    return this;
  }

  /** Ends {@code msAfterStart} after the send; by default at the last chunk. */
  /** The reply's text, instead of one letter a content chunk. */
  public Traces text(String reply) {
    this.text = reply;
    return this;
  }

  public Traces end(long msAfterStart) {
    this.endMs = msAfterStart;
    return this;
  }

  public RequestTrace build() {
    long end = endMs >= 0 ? (startMs + endMs) * MS : chunks.isEmpty() ? startMs * MS : chunks.get(chunks.size() - 1)[0] * MS;
    StringBuilder content = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    RequestTrace.Builder b = RequestTrace.builder().times(scheduledMs * MS, startMs * MS, end)
        .startedAt(Instant.ofEpochMilli(1_700_000_000_000L + startMs)).status(failure == null ? 200 : failure.status())
        .streamed(true).finishReason(finishReason).usage(usage).cachedTokens(cachedTokens).serverTimings(timings).promptTokensEstimate(10)
        .failure(failure);
    for (long[] c : chunks) {
      if (c[1] == 'e') {
        b.emptyChoice();
      } else {
        b.token(c[0] * MS, c[1] != 'r', c[1] == 'r');
        (c[1] != 'r' ? content : reasoning).append(c[1] != 'r' ? "t" : "r");
        if (c[1] == 't') b.toolCall("get_weather", "{\"city\": \"Paris\"}");
      }
    }
    if (embeddings > 0) b.embeddings(embeddings);
    return b.text(text != null ? text : content.toString(), reasoning.toString()).build();
  }
}
