package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.Usage;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apiguardian.api.API;

/**
 * Everything observed about one request, kept compact: token-chunk arrival times as {@link TokenChunks} (8
 * bytes a chunk, 2 bits more for its kind), counts instead of text, and the text only as far as
 * {@link TextCapture} asked; the fields themselves are a {@link TraceFields}, frozen. Times are {@link System#nanoTime()} values; only differences between them mean
 * anything.
 *
 * <p>A token chunk is an event whose first choice carried a non-empty content, reasoning or tool-call
 * delta (or a whole body that did). A role-only or finish-only chunk is a choices event but not a token
 * chunk, and so never counts for TTFT or ITL. Immutable.
 */
@API(status = INTERNAL)
public final class RequestTrace {

  /**
   * One tool call of a reply, its deltas joined.
   *
   * @param id        the call's id as the server sent it ({@code tool_calls[].id}); empty when it sent none
   * @param name      the function's name
   * @param arguments the arguments, as the model wrote them (JSON, if it wrote it well)
   */
  @API(status = INTERNAL)
  public record ToolCall(String id, String name, String arguments) {}

  private final TraceFields f;

  /** What {@link StreamRecorder} or a {@link Builder} filled, copied: the trace never writes its fields. */
  RequestTrace(TraceFields fields) {
    this.f = fields.frozen();
  }

  /** The same trace with {@code change} made to a copy of its fields. */
  private RequestTrace with(Consumer<TraceFields> change) {
    TraceFields c = f.copy();
    change.accept(c);
    return new RequestTrace(c);
  }

  /** The reply's tool calls in index order, as far as {@link TextCapture} kept them; empty when it made none. */
  public java.util.List<ToolCall> toolCalls() {
    return f.toolCalls;
  }

  /**
   * The reply's tokens as its {@code logprobs} named them, for a reply read whole ({@link TextCapture#FULL}) whose
   * request asked for them; empty when the server sent none.
   */
  public ReplyTokens replyTokens() {
    return f.replyTokens;
  }

  /**
   * The content cut where its token chunks ended, for a reply read whole: the tokens as the server streamed them (one
   * a chunk on vLLM, SGLang and llama-server without speculative decoding); the whole content as one piece when the
   * chunks were not kept.
   */
  public java.util.List<String> contentPieces() {
    if (f.contentEnds == null) return f.content.isEmpty() ? java.util.List.of() : java.util.List.of(f.content);
    java.util.List<String> pieces = new java.util.ArrayList<>(f.contentEnds.length);
    int from = 0;
    for (int end : f.contentEnds) {
      int to = Math.min(end, f.content.length());
      if (to > from) pieces.add(f.content.substring(from, to));
      from = Math.max(from, to);
    }
    if (from < f.content.length()) pieces.add(f.content.substring(from));
    return pieces;
  }

  /** Whether {@link #toolCalls()} hold every character the server sent of them. */
  public boolean toolCallsComplete() {
    return f.toolCallsComplete;
  }

  /** Time to the first token chunk that carried a tool call's name or arguments, from {@link #startNanos()}; -1 when none did. */
  public long toolCallTtftNanos() {
    return f.firstToolCallIndex < 0 ? f.recordedToolCallNanos : f.tokens.nanos(f.firstToolCallIndex) - f.startNanos;
  }

  /** Embedding vectors an embeddings answer carried ({@code data}'s elements); 0 for a generation. */
  public int embeddings() {
    return f.embeddings;
  }

  /** Whether a structured-output check (tool-call arguments, a JSON answer) judged this reply. */
  public boolean replyChecked() {
    return f.replyCheck != TraceFields.NOT_CHECKED;
  }

  /** Whether the check found the reply unparsed: not JSON, or not matching its schema. */
  public boolean replyUnparsed() {
    return f.replyCheck == TraceFields.UNPARSED;
  }

  /** Why the check found the reply unparsed; empty otherwise. */
  public Optional<String> replyProblem() {
    return Optional.ofNullable(f.replyProblem);
  }

  /** The same trace as judged by a structured-output check: parsed, or unparsed for {@code problem}. */
  public RequestTrace withReplyCheck(boolean parsed, String problem) {
    return with(c -> {
      c.replyCheck = parsed ? TraceFields.PARSED : TraceFields.UNPARSED;
      c.replyProblem = parsed ? null : problem;
    });
  }

  /**
   * The same trace with what a report file recorded of it beyond its times (a shard merge, an offline read): the
   * embedding vectors that came, the prompt tokens served from cache (-1: unknown), the time to the first tool-call
   * chunk (-1: none).
   */
  public RequestTrace withRecorded(int embeddings, int cachedTokens, long toolCallTtftNanos) {
    return with(c -> {
      c.embeddings = embeddings;
      c.cachedTokens = cachedTokens;
      if (f.firstToolCallIndex < 0) c.recordedToolCallNanos = toolCallTtftNanos;
    });
  }

  /** The turn of its session this request was (from 0); -1 when it was not part of a session. */
  public int turn() {
    return f.turn;
  }

  /** The same trace, known as turn {@code index} of its session. */
  /** The same trace with its body ending at {@code nanos} (read back from a file that recorded it). */
  public RequestTrace withStreamEnd(long nanos) {
    return with(c -> c.streamEndNanos = nanos);
  }

  public RequestTrace withTurn(int index) {
    return with(c -> c.turn = index);
  }

  /**
   * The same trace keeping at most {@code maxChars} of its content and of its reasoning: a session reads the
   * whole reply into its history, while the level keeps only an excerpt of it.
   */
  public RequestTrace withTextKept(int maxChars) {
    if (f.content.length() <= maxChars && f.reasoning.length() <= maxChars) return this;
    return with(c -> {
      c.content = f.content.substring(0, Math.min(maxChars, f.content.length()));
      c.reasoning = f.reasoning.substring(0, Math.min(maxChars, f.reasoning.length()));
      c.textComplete = false;
    });
  }

  /** Which request of its level this was (the load's index, from 0); -1 when the sender did not say. */
  public int requestIndex() {
    return f.requestIndex;
  }

  /** The same trace, known as request {@code index} of its level: what a graded eval pairs replies with items by. */
  public RequestTrace withRequestIndex(int index) {
    return with(c -> c.requestIndex = index);
  }

  /** When the load generator wanted to send it (before {@link #startNanos()} if it waited for a slot). */
  public long scheduledNanos() {
    return f.scheduledNanos;
  }

  /** Just before the request was handed to the connection pool. */
  public long startNanos() {
    return f.startNanos;
  }

  /** When the status line and headers had arrived, or 0 when they never did. */
  public long headersNanos() {
    return f.headersNanos;
  }

  /** Arrival of the last choices event (the whole body, when not streamed), or the failure. */
  public long endNanos() {
    return f.endNanos;
  }

  /**
   * When the body ended: after the last choices event, a late usage chunk and {@code [DONE]} (vLLM's
   * {@code duration} runs to it); never before {@link #endNanos()}.
   */
  public long streamEndNanos() {
    return Math.max(f.streamEndNanos, f.endNanos);
  }

  /**
   * Output tokens the first token chunk carried, as the server's per-chunk usage said (vLLM's
   * {@code continuous_usage_stats}); -1 when the server did not say.
   */
  public int firstChunkTokens() {
    return f.firstChunkTokens;
  }

  /**
   * The text of the first token chunk (its reasoning, then its content), when the kept text holds it whole; empty
   * otherwise. Its tokens can be counted by the server's tokenize route when the server did not report them.
   */
  public Optional<String> firstChunkText() {
    int c = f.firstChunkContentChars;
    int r = f.firstChunkReasoningChars;
    if (c < 0 || r < 0 || f.content == null || f.reasoning == null || c > f.content.length() || r > f.reasoning.length()) {
      return Optional.empty();
    }
    String text = f.reasoning.substring(0, r) + f.content.substring(0, c);
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  /** The same trace, its first token chunk known to have carried {@code tokens} tokens (counted by the server's tokenizer). */
  public RequestTrace withFirstChunkTokens(int tokens) {
    return with(c -> c.firstChunkTokens = tokens);
  }

  /** The {@code max_tokens} the request asked, as its body carried it; 0 for none (the server's default) or unknown. */
  public int maxTokensAsked() {
    return f.maxTokensAsked;
  }

  /** Whether the request's body asked {@code ignore_eos}. */
  public boolean ignoreEosSent() {
    return f.ignoreEosSent;
  }

  /** Wall-clock time of {@link #startNanos()}, for exports. */
  public Instant startedAt() {
    return f.startedAt;
  }

  public int tokenChunks() {
    return f.tokens.count();
  }

  /** Arrival of token chunk {@code i}, in arrival order. */
  public long tokenNanos(int i) {
    return f.tokens.nanos(i);
  }

  /** Gives each token chunk's arrival, in order, without copying. */
  public void forEachTokenNanos(LongConsumer arrival) {
    f.tokens.forEach(arrival);
  }

  /** Whether token chunk {@code i} carried reasoning. */
  public boolean isReasoning(int i) {
    return (f.tokens.kind(i) & TokenChunks.REASONING) != 0;
  }

  /** Whether token chunk {@code i} carried content (or a tool call): output that is not reasoning. */
  public boolean isContent(int i) {
    return (f.tokens.kind(i) & TokenChunks.CONTENT) != 0;
  }

  /** Index of the first chunk that carried content, or -1. */
  public int firstContentIndex() {
    return f.tokens.firstContent();
  }

  /** Index of the first chunk that carried reasoning, or -1. */
  public int firstReasoningIndex() {
    return f.tokens.firstReasoning();
  }

  /** Token chunks that carried reasoning. */
  public int reasoningChunks() {
    return f.tokens.reasoningChunks();
  }

  /** Time to first token (content or reasoning) from {@link #startNanos()}, or -1 when none came. */
  public long ttftNanos() {
    return f.tokens.count() == 0 ? -1 : f.tokens.nanos(0) - f.startNanos;
  }

  /** Time to first content token, or -1 when none came. */
  public long ttfoNanos() {
    return f.tokens.firstContent() < 0 ? -1 : f.tokens.nanos(f.tokens.firstContent()) - f.startNanos;
  }

  public long e2eNanos() {
    return f.endNanos - f.startNanos;
  }

  /**
   * The output tokens each token chunk after the first carried, in order, or null when not known. From the server's
   * per-chunk usage (each chunk's count less the one before); without it, one each when the tokens after the first
   * chunk (all but its count, known from per-chunk usage or the tokenize route, or one when the reply's tokens are as
   * many as its chunks) are as many as the chunks after it: every token chunk carries at least one.
   */
  public int[] laterChunkTokens() {
    int c = f.tokens.count();
    if (c < 2) return null;
    int[] out = new int[c - 1];
    boolean each = true;
    for (int i = 1; i < c && each; i++) {
      int now = f.tokens.usage(i);
      int before = f.tokens.usage(i - 1);
      each = before > 0 && now > before;
      if (each) out[i - 1] = now - before;
    }
    if (each) return out;
    Usage u = usage();
    Integer total = u == null ? null : u.completionTokens();
    if (total == null) return null;
    int first = f.firstChunkTokens > 0 ? f.firstChunkTokens : total == c ? 1 : -1;
    if (first < 0 || total - first != c - 1) return null;
    java.util.Arrays.fill(out, 1);
    return out;
  }

  /** Gives each gap between successive token chunks, in order (vLLM's ITL). */
  public void forEachItlNanos(LongConsumer gap) {
    f.tokens.forEachGap(gap);
  }

  /** Events that carried a choices element, token or not. */
  public int choiceEvents() {
    return f.choiceEvents;
  }

  /** JSON events read ({@code [DONE]} excluded), or 1 for a whole JSON body. */
  public int events() {
    return f.events;
  }

  public long contentChars() {
    return f.contentChars;
  }

  public long reasoningChars() {
    return f.reasoningChars;
  }

  /** The content, whole or cut to what {@link TextCapture} asked; see {@link #textComplete()}. */
  public String content() {
    return f.content;
  }

  public String reasoning() {
    return f.reasoning;
  }

  /** Whether {@link #content()} and {@link #reasoning()} are the whole text. */
  public boolean textComplete() {
    return f.textComplete;
  }

  /** The last {@code finish_reason}, or null. */
  public String finishReason() {
    return f.finishReason;
  }

  /** The server's {@code usage}, or null when it sent none. */
  public Usage usage() {
    return serverUsage().orElse(null);
  }

  /** The server's {@code usage}, or empty when it sent none. */
  public Optional<Usage> serverUsage() {
    return f.serverUsage();
  }

  /** {@code usage.prompt_tokens_details.cached_tokens}, or -1 when absent. */
  public int cachedTokens() {
    return f.cachedTokens;
  }

  /** llama.cpp's {@code timings} numbers, empty when absent. */
  public Map<String, Double> serverTimings() {
    return f.serverTimings;
  }

  public boolean streamed() {
    return f.streamed;
  }

  /** Whether {@code data: [DONE]} came. */
  public boolean done() {
    return f.done;
  }

  /** HTTP status, or 0 when none came. */
  public int status() {
    return f.status;
  }

  /** Body bytes read. */
  public long bytes() {
    return f.bytes;
  }

  /** The client's estimate of the prompt's tokens, used only when the server sends no {@code usage}. */
  public int promptTokensEstimate() {
    return f.promptTokensEstimate;
  }

  /**
   * How many times the request was written again on a new connection because the pooled connection it was
   * first given had closed before a byte of it left: 0 almost always, never for a request the server may have read.
   */
  public int resends() {
    return f.resends;
  }

  public boolean succeeded() {
    return f.failure == null;
  }

  /** Why it failed, or null when it succeeded. */
  public RequestFailure failure() {
    return f.failure;
  }

  /** The client's finer reason, when the client saw it fail (a hand-built trace may have only a kind). */
  public Optional<StreamFailure.Cause> cause() {
    return Optional.ofNullable(f.cause);
  }

  /** The failure with its finer cause, or empty when it succeeded. */
  public Optional<StreamFailure> streamFailure() {
    if (f.failure == null) return Optional.empty();
    StreamFailure.Cause c = f.cause != null ? f.cause : StreamFailure.Cause.of(f.failure.kind());
    return Optional.of(new StreamFailure(c, f.failure.status(), f.failure.message()));
  }

  /** The same trace, failed for {@code cause} at {@code nanos} unless it already failed. */
  RequestTrace failedIfNot(StreamFailure cause, long nanos) {
    if (f.failure != null) return this;
    return with(c -> {
      c.failure(cause);
      c.endNanos = nanos;
    });
  }

  /** The same trace counted as cancelled, with {@code message} saying which limit ended it. */
  public RequestTrace cancelled(String message) {
    return with(c -> c.failure(new StreamFailure(StreamFailure.Cause.CANCELLED, f.status, message)));
  }

  /** The same failure with its message rewritten (secrets masked). */
  RequestTrace withFailureMessage(String message) {
    if (f.failure == null || f.failure.message().equals(message)) return this;
    return with(c -> c.failure = new RequestFailure(f.failure.kind(), f.failure.status(), message));
  }

  RequestTrace withResends(int n) {
    return with(c -> c.resends = n);
  }

  /** Never the text: it can be long, and a report shows it elsewhere. */
  @Override
  public String toString() {
    return "RequestTrace[status=" + f.status + ", tokenChunks=" + f.tokens.count() + ", events=" + f.events
        + ", finish=" + f.finishReason + (f.failure == null ? "" : ", failure=" + f.failure) + "]";
  }

  /** A trace built by hand (tests, results read back from a file). */
  public static Builder builder() {
    return new TraceFields();
  }

  /**
   * A trace by hand (tests, results read back from a file): the fields a {@link StreamRecorder} fills as a stream
   * is read. Token chunks are added in arrival order.
   */
  @API(status = INTERNAL)
  public interface Builder {
    /** When it was due, sent, and when it ended (the last choices event, or the failure). */
    Builder times(long scheduledNanos, long startNanos, long endNanos);
    /** When the body ended, after the last choices event (a late usage chunk, {@code [DONE]}). */
    Builder streamEnd(long nanos);
    /** Output tokens the first token chunk carried, from per-chunk usage; -1 for unknown. */
    Builder firstChunkTokens(int tokens);
    /** What the request asked: its {@code max_tokens} (0 for none) and whether it sent {@code ignore_eos}. */
    Builder asked(int maxTokens, boolean ignoreEos);
    Builder startedAt(Instant at);
    /** The reply's tokens as its logprobs named them. */
    Builder replyTokens(ReplyTokens tokens);

    /** A token chunk that arrived at {@code nanos}, carrying content, reasoning, or both. */
    Builder token(long nanos, boolean content, boolean reasoning);
    /** A choices event with no token (a role-only or finish-only chunk). */
    Builder emptyChoice();
    Builder text(String content, String reasoning);
    /** A tool call of the reply; the last token chunk added so far is marked as the first carrying one, unless one was. */
    Builder toolCall(String name, String arguments);
    /** {@link #toolCall(String, String)} with the id the server gave the call. */
    Builder toolCall(String id, String name, String arguments);
    /** An embeddings answer of {@code count} vectors. */
    Builder embeddings(int count);
    Builder finishReason(String reason);
    Builder usage(Usage usage);
    /** {@code usage.prompt_tokens_details.cached_tokens}; -1 for absent. */
    Builder cachedTokens(int cached);
    Builder serverTimings(Map<String, Double> timings);
    Builder promptTokensEstimate(int estimate);
    /** The HTTP status that came, 0 for none. */
    Builder status(int status);
    Builder streamed(boolean streamed);
    Builder failure(RequestFailure failure);
    RequestTrace build();
  }
}
