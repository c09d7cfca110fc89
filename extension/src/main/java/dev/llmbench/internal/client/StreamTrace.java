package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Usage;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apiguardian.api.API;

/**
 * What one request observed, kept compact: token-chunk arrival times as one primitive array (8 bytes a
 * chunk, 2 bits more for its kind), counts instead of text, and the text only as far as {@link TextCapture}
 * asked. Times are {@link System#nanoTime()} values; only differences between them mean anything.
 *
 * <p>A token chunk is an event whose first choice carried a non-empty content, reasoning or tool-call
 * delta. A role-only or finish-only chunk is a choices event but not a token chunk. Immutable.
 */
@API(status = INTERNAL)
public final class StreamTrace {

  static final int CONTENT = 1;
  static final int REASONING = 2;

  private final long scheduledNanos;
  private final long startNanos;
  private final long headersNanos;
  private final long endNanos;
  private final Instant startedAt;
  private final long[] tokenNanos;
  private final long[] tokenKinds;
  private final int firstContentIndex;
  private final int firstReasoningIndex;
  private final int reasoningChunks;
  private final int choiceEvents;
  private final int events;
  private final long contentChars;
  private final long reasoningChars;
  private final String content;
  private final String reasoning;
  private final boolean textComplete;
  private final String finishReason;
  private final int promptTokens;
  private final int completionTokens;
  private final int reasoningTokens;
  private final int cachedTokens;
  private final Map<String, Double> serverTimings;
  private final boolean streamed;
  private final boolean done;
  private final int status;
  private final long bytes;
  private final int promptTokensEstimate;
  private final StreamFailure failure;

  StreamTrace(Builder b) {
    this.scheduledNanos = b.scheduledNanos;
    this.startNanos = b.startNanos;
    this.headersNanos = b.headersNanos;
    this.endNanos = b.endNanos;
    this.startedAt = b.startedAt;
    this.tokenNanos = b.tokenNanos;
    this.tokenKinds = b.tokenKinds;
    this.firstContentIndex = b.firstContentIndex;
    this.firstReasoningIndex = b.firstReasoningIndex;
    this.reasoningChunks = b.reasoningChunks;
    this.choiceEvents = b.choiceEvents;
    this.events = b.events;
    this.contentChars = b.contentChars;
    this.reasoningChars = b.reasoningChars;
    this.content = b.content;
    this.reasoning = b.reasoning;
    this.textComplete = b.textComplete;
    this.finishReason = b.finishReason;
    this.promptTokens = b.promptTokens;
    this.completionTokens = b.completionTokens;
    this.reasoningTokens = b.reasoningTokens;
    this.cachedTokens = b.cachedTokens;
    this.serverTimings = Map.copyOf(b.serverTimings);
    this.streamed = b.streamed;
    this.done = b.done;
    this.status = b.status;
    this.bytes = b.bytes;
    this.promptTokensEstimate = b.promptTokensEstimate;
    this.failure = b.failure;
  }

  /** When the load generator wanted to send it (before {@link #startNanos()} if it waited for a slot). */
  public long scheduledNanos() {
    return scheduledNanos;
  }

  /** Just before the request was handed to the connection. */
  public long startNanos() {
    return startNanos;
  }

  /** When the status line and headers had arrived, or 0 when they never did. */
  public long headersNanos() {
    return headersNanos;
  }

  /** Arrival of the last choices event (the whole body, when not streamed), or the failure. */
  public long endNanos() {
    return endNanos;
  }

  public Instant startedAt() {
    return startedAt;
  }

  public int tokenChunks() {
    return tokenNanos.length;
  }

  /** Arrival of token chunk {@code i}, in arrival order. */
  public long tokenNanos(int i) {
    return tokenNanos[i];
  }

  /** A copy of every token chunk's arrival time. */
  public long[] tokenNanos() {
    return tokenNanos.clone();
  }

  /** Whether token chunk {@code i} carried reasoning. */
  public boolean isReasoning(int i) {
    return (kind(i) & REASONING) != 0;
  }

  /** Whether token chunk {@code i} carried content (or a tool call): output that is not reasoning. */
  public boolean isContent(int i) {
    return (kind(i) & CONTENT) != 0;
  }

  private int kind(int i) {
    if (i < 0 || i >= tokenNanos.length) throw new IndexOutOfBoundsException(i);
    return (int) (tokenKinds[i >>> 5] >>> ((i & 31) << 1)) & 3;
  }

  /** Index of the first chunk that carried content, or -1. */
  public int firstContentIndex() {
    return firstContentIndex;
  }

  /** Index of the first chunk that carried reasoning, or -1. */
  public int firstReasoningIndex() {
    return firstReasoningIndex;
  }

  public int reasoningChunks() {
    return reasoningChunks;
  }

  /** Time to first token (content or reasoning) from {@link #startNanos()}, or -1 when none came. */
  public long ttftNanos() {
    return tokenNanos.length == 0 ? -1 : tokenNanos[0] - startNanos;
  }

  /** Time to first content token, or -1 when none came. */
  public long ttfoNanos() {
    return firstContentIndex < 0 ? -1 : tokenNanos[firstContentIndex] - startNanos;
  }

  public long e2eNanos() {
    return endNanos - startNanos;
  }

  /** Gives each gap between successive token chunks, in order (vLLM's ITL). */
  public void forEachItlNanos(LongConsumer gap) {
    for (int i = 1; i < tokenNanos.length; i++) gap.accept(tokenNanos[i] - tokenNanos[i - 1]);
  }

  /** Events that carried a choices element, token or not. */
  public int choiceEvents() {
    return choiceEvents;
  }

  /** JSON events read ({@code [DONE]} excluded), or 1 for a whole JSON body. */
  public int events() {
    return events;
  }

  public long contentChars() {
    return contentChars;
  }

  public long reasoningChars() {
    return reasoningChars;
  }

  /** The content, whole or cut to what {@link TextCapture} asked; see {@link #textComplete()}. */
  public String content() {
    return content;
  }

  public String reasoning() {
    return reasoning;
  }

  /** Whether {@link #content()} and {@link #reasoning()} are the whole text. */
  public boolean textComplete() {
    return textComplete;
  }

  /** The last {@code finish_reason}, or null. */
  public String finishReason() {
    return finishReason;
  }

  /** The server's {@code usage}, or empty when it sent none. */
  public Optional<Usage> usage() {
    if (promptTokens < 0 && completionTokens < 0 && reasoningTokens < 0) return Optional.empty();
    return Optional.of(new Usage(boxed(promptTokens), boxed(completionTokens), boxed(reasoningTokens)));
  }

  /** {@code usage.prompt_tokens_details.cached_tokens}, or -1 when absent. */
  public int cachedTokens() {
    return cachedTokens;
  }

  private static Integer boxed(int v) {
    return v < 0 ? null : v;
  }

  /** llama.cpp's {@code timings} numbers, empty when absent. */
  public Map<String, Double> serverTimings() {
    return serverTimings;
  }

  public boolean streamed() {
    return streamed;
  }

  /** Whether {@code data: [DONE]} came. */
  public boolean done() {
    return done;
  }

  /** HTTP status, or 0 when none came. */
  public int status() {
    return status;
  }

  /** Body bytes read. */
  public long bytes() {
    return bytes;
  }

  public int promptTokensEstimate() {
    return promptTokensEstimate;
  }

  public boolean succeeded() {
    return failure == null;
  }

  public Optional<StreamFailure> failure() {
    return Optional.ofNullable(failure);
  }

  /** The same trace, failed for {@code cause} at {@code nanos} unless it already failed. */
  StreamTrace failedIfNot(StreamFailure cause, long nanos) {
    if (failure != null) return this;
    Builder b = toBuilder();
    b.failure = cause;
    b.endNanos = nanos;
    return new StreamTrace(b);
  }

  private Builder toBuilder() {
    Builder b = new Builder();
    b.scheduledNanos = scheduledNanos;
    b.startNanos = startNanos;
    b.headersNanos = headersNanos;
    b.endNanos = endNanos;
    b.startedAt = startedAt;
    b.tokenNanos = tokenNanos;
    b.tokenKinds = tokenKinds;
    b.firstContentIndex = firstContentIndex;
    b.firstReasoningIndex = firstReasoningIndex;
    b.reasoningChunks = reasoningChunks;
    b.choiceEvents = choiceEvents;
    b.events = events;
    b.contentChars = contentChars;
    b.reasoningChars = reasoningChars;
    b.content = content;
    b.reasoning = reasoning;
    b.textComplete = textComplete;
    b.finishReason = finishReason;
    b.promptTokens = promptTokens;
    b.completionTokens = completionTokens;
    b.reasoningTokens = reasoningTokens;
    b.cachedTokens = cachedTokens;
    b.serverTimings = serverTimings;
    b.streamed = streamed;
    b.done = done;
    b.status = status;
    b.bytes = bytes;
    b.promptTokensEstimate = promptTokensEstimate;
    b.failure = failure;
    return b;
  }

  @Override
  public String toString() {
    return "StreamTrace[status=" + status + ", tokenChunks=" + tokenNanos.length + ", events=" + events
        + ", finish=" + finishReason + (failure == null ? "" : ", failure=" + failure) + "]";
  }

  /** Fields in the making; {@link StreamRecorder} fills it. */
  static final class Builder {
    long scheduledNanos;
    long startNanos;
    long headersNanos;
    long endNanos;
    Instant startedAt;
    long[] tokenNanos = new long[0];
    long[] tokenKinds = new long[0];
    int firstContentIndex = -1;
    int firstReasoningIndex = -1;
    int reasoningChunks;
    int choiceEvents;
    int events;
    long contentChars;
    long reasoningChars;
    String content = "";
    String reasoning = "";
    boolean textComplete = true;
    String finishReason;
    int promptTokens = -1;
    int completionTokens = -1;
    int reasoningTokens = -1;
    int cachedTokens = -1;
    Map<String, Double> serverTimings = Map.of();
    boolean streamed;
    boolean done;
    int status;
    long bytes;
    int promptTokensEstimate;
    StreamFailure failure;
  }
}
