package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.Usage;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apiguardian.api.API;

/**
 * Everything observed about one request, kept compact: token-chunk arrival times as one primitive array (8
 * bytes a chunk, 2 bits more for its kind), counts instead of text, and the text only as far as
 * {@link TextCapture} asked. Times are {@link System#nanoTime()} values; only differences between them mean
 * anything.
 *
 * <p>A token chunk is an event whose first choice carried a non-empty content, reasoning or tool-call
 * delta (or a whole body that did). A role-only or finish-only chunk is a choices event but not a token
 * chunk, and so never counts for TTFT or ITL. Immutable.
 */
@API(status = INTERNAL)
public final class RequestTrace {

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
  private final int resends;
  private final StreamFailure.Cause cause;
  private final RequestFailure failure;
  private final int requestIndex;
  private final java.util.List<ToolCall> toolCalls;
  private final boolean toolCallsComplete;
  private final int firstToolCallIndex;
  /** The first tool-call chunk's time from the start as a file recorded it, for a trace rebuilt without its chunks; -1 for none. */
  private final long recordedToolCallNanos;
  private final int embeddings;
  private final byte replyCheck;
  private final String replyProblem;

  /** What a reply was found to be by a structured-output check: not checked, parsed, or not. */
  private static final byte NOT_CHECKED = 0;
  private static final byte PARSED = 1;
  private static final byte UNPARSED = 2;

  /**
   * One tool call of a reply, its deltas joined.
   *
   * @param name      the function's name
   * @param arguments the arguments, as the model wrote them (JSON, if it wrote it well)
   */
  @API(status = INTERNAL)
  public record ToolCall(String name, String arguments) {}
  private final int turn;

  /** What {@link StreamRecorder} froze; a hand-built trace goes through {@link Builder#build()}. */
  RequestTrace(Builder b) {
    this.scheduledNanos = b.scheduledNanos;
    this.startNanos = b.startNanos;
    this.headersNanos = b.headersNanos;
    this.endNanos = b.endNanos;
    this.startedAt = b.startedAt == null ? Instant.EPOCH : b.startedAt;
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
    this.resends = b.resends;
    this.cause = b.cause;
    this.failure = b.failure;
    this.requestIndex = b.requestIndex;
    this.turn = b.turn;
    this.toolCalls = java.util.List.copyOf(b.toolCalls);
    this.toolCallsComplete = b.toolCallsComplete;
    this.firstToolCallIndex = b.firstToolCallIndex;
    this.recordedToolCallNanos = b.recordedToolCallNanos;
    this.embeddings = b.embeddings;
    this.replyCheck = b.replyCheck;
    this.replyProblem = b.replyProblem;
  }

  /** The reply's tool calls in index order, as far as {@link TextCapture} kept them; empty when it made none. */
  public java.util.List<ToolCall> toolCalls() {
    return toolCalls;
  }

  /** Whether {@link #toolCalls()} hold every character the server sent of them. */
  public boolean toolCallsComplete() {
    return toolCallsComplete;
  }

  /** Time to the first token chunk that carried a tool call's name or arguments, from {@link #startNanos()}; -1 when none did. */
  public long toolCallTtftNanos() {
    return firstToolCallIndex < 0 ? recordedToolCallNanos : tokenNanos[firstToolCallIndex] - startNanos;
  }

  /** Embedding vectors an embeddings answer carried ({@code data}'s elements); 0 for a generation. */
  public int embeddings() {
    return embeddings;
  }

  /** Whether a structured-output check (tool-call arguments, a JSON answer) judged this reply. */
  public boolean replyChecked() {
    return replyCheck != NOT_CHECKED;
  }

  /** Whether the check found the reply unparsed: not JSON, or not matching its schema. */
  public boolean replyUnparsed() {
    return replyCheck == UNPARSED;
  }

  /** Why the check found the reply unparsed; empty otherwise. */
  public Optional<String> replyProblem() {
    return Optional.ofNullable(replyProblem);
  }

  /** The same trace as judged by a structured-output check: parsed, or unparsed for {@code problem}. */
  public RequestTrace withReplyCheck(boolean parsed, String problem) {
    Builder b = toBuilder();
    b.replyCheck = parsed ? PARSED : UNPARSED;
    b.replyProblem = parsed ? null : problem;
    return new RequestTrace(b);
  }

  /**
   * The same trace with what a report file recorded of it beyond its times (a shard merge, an offline read): the
   * embedding vectors that came, the prompt tokens served from cache (-1: unknown), the time to the first tool-call
   * chunk (-1: none).
   */
  public RequestTrace withRecorded(int embeddings, int cachedTokens, long toolCallTtftNanos) {
    Builder b = toBuilder();
    b.embeddings = embeddings;
    b.cachedTokens = cachedTokens;
    if (firstToolCallIndex < 0) b.recordedToolCallNanos = toolCallTtftNanos;
    return new RequestTrace(b);
  }

  /** The turn of its session this request was (from 0); -1 when it was not part of a session. */
  public int turn() {
    return turn;
  }

  /** The same trace, known as turn {@code index} of its session. */
  public RequestTrace withTurn(int index) {
    Builder b = toBuilder();
    b.turn = index;
    return new RequestTrace(b);
  }

  /**
   * The same trace keeping at most {@code maxChars} of its content and of its reasoning: a session reads the
   * whole reply into its history, while the level keeps only an excerpt of it.
   */
  public RequestTrace withTextKept(int maxChars) {
    if (content.length() <= maxChars && reasoning.length() <= maxChars) return this;
    Builder b = toBuilder();
    b.content = content.substring(0, Math.min(maxChars, content.length()));
    b.reasoning = reasoning.substring(0, Math.min(maxChars, reasoning.length()));
    b.textComplete = false;
    return new RequestTrace(b);
  }

  /** Which request of its level this was (the load's index, from 0); -1 when the sender did not say. */
  public int requestIndex() {
    return requestIndex;
  }

  /** The same trace, known as request {@code index} of its level: what a graded eval pairs replies with items by. */
  public RequestTrace withRequestIndex(int index) {
    Builder b = toBuilder();
    b.requestIndex = index;
    return new RequestTrace(b);
  }

  /** When the load generator wanted to send it (before {@link #startNanos()} if it waited for a slot). */
  public long scheduledNanos() {
    return scheduledNanos;
  }

  /** Just before the request was handed to the connection pool. */
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

  /** Wall-clock time of {@link #startNanos()}, for exports. */
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

  /** Gives each token chunk's arrival, in order, without copying. */
  public void forEachTokenNanos(LongConsumer arrival) {
    for (long t : tokenNanos) arrival.accept(t);
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

  /** Token chunks that carried reasoning. */
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

  /** The server's {@code usage}, or null when it sent none. */
  public Usage usage() {
    return serverUsage().orElse(null);
  }

  /** The server's {@code usage}, or empty when it sent none. */
  public Optional<Usage> serverUsage() {
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

  /** The client's estimate of the prompt's tokens, used only when the server sends no {@code usage}. */
  public int promptTokensEstimate() {
    return promptTokensEstimate;
  }

  /**
   * How many times the request was written again on a new connection because the pooled connection it was
   * first given had closed before a byte of it left: 0 almost always, never for a request the server may have read.
   */
  public int resends() {
    return resends;
  }

  public boolean succeeded() {
    return failure == null;
  }

  /** Why it failed, or null when it succeeded. */
  public RequestFailure failure() {
    return failure;
  }

  /** The client's finer reason, when the client saw it fail (a hand-built trace may have only a kind). */
  public Optional<StreamFailure.Cause> cause() {
    return Optional.ofNullable(cause);
  }

  /** The failure with its finer cause, or empty when it succeeded. */
  public Optional<StreamFailure> streamFailure() {
    if (failure == null) return Optional.empty();
    StreamFailure.Cause c = cause != null ? cause : StreamFailure.Cause.of(failure.kind());
    return Optional.of(new StreamFailure(c, failure.status(), failure.message()));
  }

  /** The same trace, failed for {@code cause} at {@code nanos} unless it already failed. */
  RequestTrace failedIfNot(StreamFailure cause, long nanos) {
    if (failure != null) return this;
    Builder b = toBuilder();
    b.failure(cause);
    b.endNanos = nanos;
    return new RequestTrace(b);
  }

  /** The same trace counted as cancelled, with {@code message} saying which limit ended it. */
  public RequestTrace cancelled(String message) {
    Builder b = toBuilder();
    b.failure(new StreamFailure(StreamFailure.Cause.CANCELLED, status, message));
    return new RequestTrace(b);
  }

  /** The same failure with its message rewritten (secrets masked). */
  RequestTrace withFailureMessage(String message) {
    if (failure == null || failure.message().equals(message)) return this;
    Builder b = toBuilder();
    b.failure = new RequestFailure(failure.kind(), failure.status(), message);
    return new RequestTrace(b);
  }

  RequestTrace withResends(int n) {
    Builder b = toBuilder();
    b.resends = n;
    return new RequestTrace(b);
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
    b.resends = resends;
    b.cause = cause;
    b.failure = failure;
    b.requestIndex = requestIndex;
    b.toolCalls = toolCalls;
    b.toolCallsComplete = toolCallsComplete;
    b.firstToolCallIndex = firstToolCallIndex;
    b.recordedToolCallNanos = recordedToolCallNanos;
    b.embeddings = embeddings;
    b.replyCheck = replyCheck;
    b.replyProblem = replyProblem;
    b.turn = turn;
    return b;
  }

  /** Never the text: it can be long, and a report shows it elsewhere. */
  @Override
  public String toString() {
    return "RequestTrace[status=" + status + ", tokenChunks=" + tokenNanos.length + ", events=" + events
        + ", finish=" + finishReason + (failure == null ? "" : ", failure=" + failure) + "]";
  }

  /** A trace built by hand (tests, results read back from a file). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The fields of a trace in the making. {@link StreamRecorder} fills them as a stream is read; others use
   * the fluent setters. Token chunks are added in arrival order.
   */
  @API(status = INTERNAL)
  public static final class Builder {
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
    int resends;
    StreamFailure.Cause cause;
    RequestFailure failure;
    int requestIndex = -1;
    java.util.List<ToolCall> toolCalls = java.util.List.of();
    boolean toolCallsComplete = true;
    int firstToolCallIndex = -1;
    long recordedToolCallNanos = -1;
    int embeddings;
    byte replyCheck;
    String replyProblem;
    int turn = -1;
    private int n;

    Builder() {}

    /** When it was due, sent, and when it ended (the last choices event, or the failure). */
    public Builder times(long scheduledNanos, long startNanos, long endNanos) {
      this.scheduledNanos = scheduledNanos;
      this.startNanos = startNanos;
      this.endNanos = endNanos;
      return this;
    }

    public Builder startedAt(Instant at) {
      this.startedAt = at;
      return this;
    }

    /** A token chunk that arrived at {@code nanos}, carrying content, reasoning, or both. */
    public Builder token(long nanos, boolean content, boolean reasoning) {
      int kind = (content ? CONTENT : 0) | (reasoning ? REASONING : 0);
      if (kind == 0) throw new IllegalArgumentException("a token chunk carries content or reasoning");
      if (n == tokenNanos.length) {
        tokenNanos = Arrays.copyOf(tokenNanos, Math.max(8, n * 2));
        tokenKinds = Arrays.copyOf(tokenKinds, (tokenNanos.length + 31) >>> 5);
      }
      tokenNanos[n] = nanos;
      tokenKinds[n >>> 5] |= (long) kind << ((n & 31) << 1);
      if (content && firstContentIndex < 0) firstContentIndex = n;
      if (reasoning) {
        if (firstReasoningIndex < 0) firstReasoningIndex = n;
        reasoningChunks++;
      }
      n++;
      choiceEvents++;
      events++;
      return this;
    }

    /** A choices event with no token (a role-only or finish-only chunk). */
    public Builder emptyChoice() {
      choiceEvents++;
      events++;
      return this;
    }

    public Builder text(String content, String reasoning) {
      this.content = content;
      this.reasoning = reasoning;
      this.contentChars = content.length();
      this.reasoningChars = reasoning.length();
      return this;
    }

    /** A tool call of the reply; the last token chunk added so far is marked as the first carrying one, unless one was. */
    public Builder toolCall(String name, String arguments) {
      java.util.List<ToolCall> calls = new java.util.ArrayList<>(toolCalls);
      calls.add(new ToolCall(name, arguments));
      toolCalls = calls;
      if (firstToolCallIndex < 0 && n > 0) firstToolCallIndex = n - 1;
      return this;
    }

    /** An embeddings answer of {@code count} vectors. */
    public Builder embeddings(int count) {
      this.embeddings = count;
      return this;
    }

    public Builder finishReason(String reason) {
      this.finishReason = reason;
      return this;
    }

    public Builder usage(Usage usage) {
      if (usage == null) return this;
      this.promptTokens = usage.promptTokens() == null ? -1 : usage.promptTokens();
      this.completionTokens = usage.completionTokens() == null ? -1 : usage.completionTokens();
      this.reasoningTokens = usage.reasoningTokens() == null ? -1 : usage.reasoningTokens();
      return this;
    }

    /** {@code usage.prompt_tokens_details.cached_tokens}; -1 for absent. */
    public Builder cachedTokens(int cached) {
      this.cachedTokens = cached;
      return this;
    }

    public Builder serverTimings(Map<String, Double> timings) {
      this.serverTimings = Map.copyOf(timings);
      return this;
    }

    public Builder promptTokensEstimate(int estimate) {
      this.promptTokensEstimate = estimate;
      return this;
    }

    /** The HTTP status that came, 0 for none. */
    public Builder status(int status) {
      this.status = status;
      return this;
    }

    public Builder streamed(boolean streamed) {
      this.streamed = streamed;
      return this;
    }

    public Builder failure(RequestFailure failure) {
      this.failure = failure;
      this.cause = null;
      return this;
    }

    Builder failure(StreamFailure f) {
      this.cause = f == null ? null : f.cause();
      this.failure = f == null ? null : f.toRequestFailure();
      return this;
    }

    public RequestTrace build() {
      if (tokenNanos.length != n) {
        tokenNanos = Arrays.copyOf(tokenNanos, n);
        tokenKinds = Arrays.copyOf(tokenKinds, (n + 31) >>> 5);
      }
      return new RequestTrace(this);
    }
  }
}
