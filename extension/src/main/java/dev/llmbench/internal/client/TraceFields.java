package dev.llmbench.internal.client;

import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of one {@link RequestTrace}: written while a {@link StreamRecorder} reads a stream or a
 * {@link RequestTrace.Builder} is called, then copied into the trace, which never writes them again (its
 * {@code with...} methods change a copy). Counts that the server did not send are -1.
 */
final class TraceFields implements RequestTrace.Builder, Cloneable {

  /** What a reply was found to be by a structured-output check: not checked, parsed, or not. */
  static final byte NOT_CHECKED = 0;
  static final byte PARSED = 1;
  static final byte UNPARSED = 2;

  long scheduledNanos;
  long startNanos;
  long headersNanos;
  long endNanos;
  /** When the body ended (after a late usage chunk and {@code [DONE]}); 0 when not recorded: then {@link #endNanos}. */
  long streamEndNanos;
  /** Output tokens the first token chunk carried, from per-chunk usage; -1 when unknown. */
  int firstChunkTokens = -1;
  /** Content and reasoning characters up to the end of the first token chunk; -1 before it came. */
  int firstChunkContentChars = -1;
  int firstChunkReasoningChars = -1;
  /** The {@code max_tokens} the request asked, 0 for none or unknown. */
  int maxTokensAsked;
  /** Whether the request asked {@code ignore_eos}. */
  boolean ignoreEosSent;
  Instant startedAt;
  TokenChunks tokens = TokenChunks.NONE;
  /** Where a hand-built trace's token chunks go until it is built; null while none came. */
  private TokenChunks.Appender appender;
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
  List<RequestTrace.ToolCall> toolCalls = List.of();
  boolean toolCallsComplete = true;
  int firstToolCallIndex = -1;
  /** The first tool-call chunk's time from the start as a file recorded it, for a trace rebuilt without its chunks; -1 for none. */
  long recordedToolCallNanos = -1;
  int embeddings;
  byte replyCheck = NOT_CHECKED;
  String replyProblem;
  int turn = -1;
  /** The reply's tokens from {@code logprobs}, kept for replies read whole; none when the server sent none. */
  ReplyTokens replyTokens = ReplyTokens.NONE;
  /** The content's length after each token chunk, kept for replies read whole; null when not kept. */
  int[] contentEnds;

  /** A copy to change; the arrays, lists and maps it shares are never written. */
  TraceFields copy() {
    try {
      TraceFields c = (TraceFields) super.clone();
      c.appender = null;
      return c;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** A copy as a trace keeps it: no start time is the epoch, and the collections are immutable. */
  TraceFields frozen() {
    TraceFields c = copy();
    if (appender != null) c.tokens = appender.freeze();
    if (c.startedAt == null) c.startedAt = Instant.EPOCH;
    c.serverTimings = Map.copyOf(c.serverTimings);
    c.toolCalls = List.copyOf(c.toolCalls);
    return c;
  }

  /** The server's {@code usage}, or empty when it sent none. */
  Optional<Usage> serverUsage() {
    if (promptTokens < 0 && completionTokens < 0 && reasoningTokens < 0) return Optional.empty();
    return Optional.of(new Usage(boxed(promptTokens), boxed(completionTokens), boxed(reasoningTokens)));
  }

  private static Integer boxed(int v) {
    return v < 0 ? null : v;
  }

  private int chunks() {
    return appender == null ? tokens.count() : appender.count();
  }

  @Override
  public TraceFields times(long scheduledNanos, long startNanos, long endNanos) {
    this.scheduledNanos = scheduledNanos;
    this.startNanos = startNanos;
    this.endNanos = endNanos;
    return this;
  }

  @Override
  public TraceFields streamEnd(long nanos) {
    this.streamEndNanos = nanos;
    return this;
  }

  @Override
  public TraceFields asked(int maxTokens, boolean ignoreEos) {
    this.maxTokensAsked = maxTokens;
    this.ignoreEosSent = ignoreEos;
    return this;
  }

  @Override
  public TraceFields firstChunkTokens(int tokens) {
    this.firstChunkTokens = tokens;
    return this;
  }

  @Override
  public TraceFields startedAt(Instant at) {
    this.startedAt = at;
    return this;
  }

  @Override
  public TraceFields token(long nanos, boolean content, boolean reasoning) {
    int kind = (content ? TokenChunks.CONTENT : 0) | (reasoning ? TokenChunks.REASONING : 0);
    if (kind == 0) throw new IllegalArgumentException("a token chunk carries content or reasoning");
    if (appender == null) appender = new TokenChunks.Appender(8);
    appender.add(nanos, kind);
    choiceEvents++;
    events++;
    return this;
  }

  @Override
  public TraceFields emptyChoice() {
    choiceEvents++;
    events++;
    return this;
  }

  @Override
  public TraceFields text(String content, String reasoning) {
    this.content = content;
    this.reasoning = reasoning;
    this.contentChars = content.length();
    this.reasoningChars = reasoning.length();
    return this;
  }

  @Override
  public TraceFields toolCall(String name, String arguments) {
    return toolCall("", name, arguments);
  }

  @Override
  public TraceFields toolCall(String id, String name, String arguments) {
    List<RequestTrace.ToolCall> calls = new ArrayList<>(toolCalls);
    calls.add(new RequestTrace.ToolCall(id, name, arguments));
    toolCalls = calls;
    int n = chunks();
    if (firstToolCallIndex < 0 && n > 0) firstToolCallIndex = n - 1;
    return this;
  }

  @Override
  public TraceFields embeddings(int count) {
    this.embeddings = count;
    return this;
  }

  @Override
  public TraceFields replyTokens(ReplyTokens tokens) {
    this.replyTokens = tokens;
    return this;
  }

  @Override
  public TraceFields finishReason(String reason) {
    this.finishReason = reason;
    return this;
  }

  @Override
  public TraceFields usage(Usage usage) {
    if (usage == null) return this;
    this.promptTokens = usage.promptTokens() == null ? -1 : usage.promptTokens();
    this.completionTokens = usage.completionTokens() == null ? -1 : usage.completionTokens();
    this.reasoningTokens = usage.reasoningTokens() == null ? -1 : usage.reasoningTokens();
    return this;
  }

  @Override
  public TraceFields cachedTokens(int cached) {
    this.cachedTokens = cached;
    return this;
  }

  @Override
  public TraceFields serverTimings(Map<String, Double> timings) {
    this.serverTimings = Map.copyOf(timings);
    return this;
  }

  @Override
  public TraceFields promptTokensEstimate(int estimate) {
    this.promptTokensEstimate = estimate;
    return this;
  }

  @Override
  public TraceFields status(int status) {
    this.status = status;
    return this;
  }

  @Override
  public TraceFields streamed(boolean streamed) {
    this.streamed = streamed;
    return this;
  }

  @Override
  public TraceFields failure(RequestFailure failure) {
    this.failure = failure;
    this.cause = null;
    return this;
  }

  /** A failure the client saw, with its finer cause; null for none. */
  TraceFields failure(StreamFailure f) {
    this.cause = f == null ? null : f.cause();
    this.failure = f == null ? null : f.toRequestFailure();
    return this;
  }

  @Override
  public RequestTrace build() {
    return new RequestTrace(this);
  }
}
