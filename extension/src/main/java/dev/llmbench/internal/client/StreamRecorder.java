package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Collects what one request observes while its body is read, then freezes it into a {@link RequestTrace}.
 * Token-chunk times and kinds go into a {@link TokenChunks.Appender}; text is kept only up to the
 * {@link TextCapture} limit. Confined to the thread reading the stream.
 */
@API(status = INTERNAL)
public final class StreamRecorder {

  private static final int INITIAL = 32;

  private final TextCapture capture;
  private final TraceFields b = new TraceFields();
  private final TokenChunks.Appender tokens = new TokenChunks.Appender(INITIAL);
  private long lastChoicesNanos;
  private StringBuilder content;
  private StringBuilder reasoning;
  private int contentMark;
  private int reasoningMark;
  private Map<String, Double> timings;
  private String serverError;
  /** Tool calls by index: name, arguments and id, as far as the capture keeps them; null until the first. */
  private java.util.List<StringBuilder[]> tools;
  /** Each call's name, argument and id lengths at the last event's start, reused from event to event: see markEvent. */
  private int[] toolMarks;
  private int toolMarkCount;
  private long toolChars;
  /** A reply read whole: its tokens from logprobs, and the content's length after each token chunk. */
  private java.util.List<ReplyTokens.Token> logprobTokens;
  private int logprobMark;
  private int[] contentEnds;
  private int contentEndCount;
  private int contentEndMark;
  // The logprob entries being read: a token, and one of its top_logprobs; each field may come in any order.
  private final LogprobParts token = new LogprobParts();
  private final LogprobParts choice = new LogprobParts();
  private final java.util.List<ReplyTokens.Choice> top = new java.util.ArrayList<>();

  public StreamRecorder(TextCapture capture, long scheduledNanos, long startNanos, int promptTokensEstimate) {
    this.capture = capture;
    b.scheduledNanos = scheduledNanos;
    b.startNanos = startNanos;
    b.startedAt = Instant.now();
    b.promptTokensEstimate = promptTokensEstimate;
  }

  /** What the request asked: its {@code max_tokens} (0 for none) and whether it sent {@code ignore_eos}. */
  public void asked(int maxTokens, boolean ignoreEos) {
    b.asked(maxTokens, ignoreEos);
  }

  public void headers(int status, long nanos, boolean streamed) {
    b.status = status;
    b.headersNanos = nanos;
    b.streamed = streamed;
  }

  int tokenChunks() {
    return tokens.count();
  }

  int events() {
    return b.events;
  }

  boolean sawDone() {
    return b.done;
  }

  // ---- called by the parser once per complete event ----

  void event() {
    b.events++;
  }

  /** An event that carried a choices element; {@code kind} is CONTENT and/or REASONING bits, or 0. */
  void choice(long nanos, int kind, boolean toolCall) {
    if (toolCall && kind != 0 && b.firstToolCallIndex < 0) b.firstToolCallIndex = tokens.count();
    b.choiceEvents++;
    lastChoicesNanos = nanos;
    if (kind != 0) tokens.add(nanos, kind);
    if ((kind & TokenChunks.CONTENT) != 0 && capture.isFull() && content != null) {
      if (contentEnds == null) contentEnds = new int[INITIAL];
      if (contentEndCount == contentEnds.length) contentEnds = java.util.Arrays.copyOf(contentEnds, contentEndCount * 2);
      contentEnds[contentEndCount++] = content.length();
    }
  }

  // ---- a token's logprobs (choices[0].logprobs.content[i]), kept for a reply read whole ----

  void logprobStart(boolean alternative) {
    (alternative ? choice : token).reset();
    if (!alternative) top.clear();
  }

  void logprobId(boolean alternative, int id) {
    (alternative ? choice : token).id = id;
  }

  void logprobByte(boolean alternative, int b) {
    (alternative ? choice : token).add(b);
  }

  void logprobText(boolean alternative, String text) {
    (alternative ? choice : token).text = text;
  }

  void logprob(boolean alternative, double value) {
    (alternative ? choice : token).logprob = value;
  }

  /** An entry ended: a top_logprobs choice joins its token's list, a token the reply's. */
  void logprobEnd(boolean alternative) {
    if (!capture.isFull()) return;
    if (alternative) {
      top.add(new ReplyTokens.Choice(choice.key(), choice.logprob));
      return;
    }
    if (logprobTokens == null) logprobTokens = new java.util.ArrayList<>();
    logprobTokens.add(new ReplyTokens.Token(token.key(), token.logprob, top));
    top.clear();
  }

  /** The parts of one logprob entry as they are read. */
  private static final class LogprobParts {
    int id;
    byte[] bytes = new byte[16];
    int byteCount;
    String text;
    double logprob;

    void reset() {
      id = -1;
      byteCount = -1;
      text = null;
      logprob = Double.NaN;
    }

    void add(int b) {
      if (byteCount < 0) byteCount = 0;
      if (b < 0 || b > 255) return;
      if (byteCount == bytes.length) bytes = java.util.Arrays.copyOf(bytes, bytes.length * 2);
      bytes[byteCount++] = (byte) b;
    }

    String key() {
      return ReplyTokens.key(id, bytes, byteCount, text);
    }
  }


  void chars(int contentChars, int reasoningChars) {
    b.contentChars += contentChars;
    b.reasoningChars += reasoningChars;
    // Where the first token chunk's text ends, so that its tokens can be counted later when the server did not say.
    if (tokens.count() == 1 && b.firstChunkContentChars < 0) {
      b.firstChunkContentChars = (int) Math.min(Integer.MAX_VALUE, b.contentChars);
      b.firstChunkReasoningChars = (int) Math.min(Integer.MAX_VALUE, b.reasoningChars);
    }
  }

  void finishReason(String reason) {
    b.finishReason = reason;
  }

  void usage(int prompt, int completion, int reasoningTokens, int cached) {
    b.promptTokens = prompt;
    b.completionTokens = completion;
    b.reasoningTokens = reasoningTokens;
    b.cachedTokens = cached;
  }

  /**
   * A token chunk's event also carried usage (vLLM's {@code continuous_usage_stats}): its completion tokens,
   * counted so far, tell how many the first token chunk carried.
   */
  void chunkUsage(int completion) {
    if (tokens.count() == 1 && b.firstChunkTokens < 0 && completion > 0) b.firstChunkTokens = completion;
    // Every chunk's count too: what each later chunk carried is its count less the one before (the per-token ITL).
    if (completion > 0) tokens.usage(completion);
  }

  void timing(String name, double value) {
    if (timings == null) timings = new LinkedHashMap<>();
    timings.put(name, value);
  }

  /** An embeddings answer's {@code data} held {@code count} elements. */
  void embeddings(int count) {
    b.embeddings += count;
  }

  void markDone() {
    b.done = true;
  }

  void serverError(String message) {
    if (serverError == null) serverError = message;
  }

  // ---- text, appended as it is parsed; undone if its event never completes ----

  void markEvent() {
    logprobMark = logprobTokens == null ? 0 : logprobTokens.size();
    contentEndMark = contentEndCount;
    contentMark = content == null ? 0 : content.length();
    reasoningMark = reasoning == null ? 0 : reasoning.length();
    if (tools != null) {
      // Grown only when a call is added: a new array every event would be garbage on the hot path.
      if (toolMarks == null || toolMarks.length < tools.size() * 3) toolMarks = new int[tools.size() * 3];
      toolMarkCount = tools.size();
      for (int i = 0; i < toolMarkCount; i++) {
        for (int part = 0; part < 3; part++) toolMarks[3 * i + part] = tools.get(i)[part].length();
      }
    }
  }

  void dropEventText() {
    if (logprobTokens != null) while (logprobTokens.size() > logprobMark) logprobTokens.remove(logprobTokens.size() - 1);
    contentEndCount = contentEndMark;
    if (content != null) content.setLength(contentMark);
    if (reasoning != null) reasoning.setLength(reasoningMark);
    if (tools != null) {
      int kept = toolMarkCount;
      while (tools.size() > kept) tools.remove(tools.size() - 1);
      for (int i = 0; i < kept; i++) {
        for (int part = 0; part < 3; part++) tools.get(i)[part].setLength(toolMarks[3 * i + part]);
      }
    }
  }

  /** A piece of tool call {@code index}'s name or arguments, kept as far as the capture allows. */
  void appendToolCall(int index, boolean name, char[] chars, int offset, int length) {
    toolChars += length;
    if (capture.maxChars() == 0) return;
    if (tools == null) tools = new java.util.ArrayList<>(1);
    if (index > 64) return; // no reply makes that many calls; a bogus index must not grow the list
    grow(index);
    append(tools.get(index)[name ? 0 : 1], chars, offset, length);
  }

  /**
   * Tool call {@code index}'s id, kept whole: a session answers the call by it. Not counted with the name and
   * arguments, so a call whose id came still counts as complete by them alone.
   */
  void toolCallId(int index, char[] chars, int offset, int length) {
    if (capture.maxChars() == 0 || index > 64) return;
    if (tools == null) tools = new java.util.ArrayList<>(1);
    grow(index);
    StringBuilder id = tools.get(index)[2];
    id.setLength(0);
    id.append(chars, offset, length);
  }

  private void grow(int index) {
    while (tools.size() <= index) tools.add(new StringBuilder[] {new StringBuilder(), new StringBuilder(), new StringBuilder()});
  }

  void appendContent(char[] chars, int offset, int length) {
    if (capture.maxChars() == 0) return;
    if (content == null) content = new StringBuilder(Math.min(capture.maxChars(), 256));
    append(content, chars, offset, length);
  }

  void appendReasoning(char[] chars, int offset, int length) {
    if (capture.maxChars() == 0) return;
    if (reasoning == null) reasoning = new StringBuilder(Math.min(capture.maxChars(), 256));
    append(reasoning, chars, offset, length);
  }

  private void append(StringBuilder to, char[] chars, int offset, int length) {
    int room = capture.maxChars() - to.length();
    if (room <= 0) return;
    int take = Math.min(room, length);
    // Never keep half a surrogate pair.
    if (take < length && take > 0 && Character.isHighSurrogate(chars[offset + take - 1])) take--;
    to.append(chars, offset, take);
  }

  // ---- the end ----

  /**
   * The trace of a body that ended (cleanly, or with {@code failure}), judged: a stream must end with a
   * finish_reason or [DONE], must carry output, and must not carry an error object.
   */
  public RequestTrace finish(long nowNanos, long bytes, StreamFailure failure) {
    b.bytes = bytes;
    b.tokens = tokens.freeze();
    b.content = content == null ? "" : content.toString();
    b.reasoning = reasoning == null ? "" : reasoning.toString();
    b.textComplete = b.contentChars <= capture.maxChars() && b.reasoningChars <= capture.maxChars();
    b.serverTimings = timings == null ? Map.of() : timings;
    if (logprobTokens != null) b.replyTokens = new ReplyTokens(logprobTokens);
    if (contentEnds != null) b.contentEnds = java.util.Arrays.copyOf(contentEnds, contentEndCount);
    if (tools != null) {
      long kept = 0;
      java.util.List<RequestTrace.ToolCall> calls = new java.util.ArrayList<>(tools.size());
      for (StringBuilder[] t : tools) {
        calls.add(new RequestTrace.ToolCall(t[2].toString(), t[0].toString(), t[1].toString()));
        kept += t[0].length() + t[1].length();
      }
      b.toolCalls = calls;
      b.toolCallsComplete = kept == toolChars;
    } else if (toolChars > 0) {
      b.toolCallsComplete = false;
    }
    StreamFailure f = failure != null ? failure : judge();
    b.failure(f);
    b.endNanos = f == null && b.choiceEvents > 0 ? lastChoicesNanos : nowNanos;
    b.streamEndNanos = nowNanos;
    return new RequestTrace(b);
  }

  private StreamFailure judge() {
    if (serverError != null) {
      return new StreamFailure(StreamFailure.Cause.SERVER_ERROR, b.status, "the server sent an error: " + serverError);
    }
    if (tokens.count() == 0 && b.finishReason == null && b.embeddings == 0) {
      return b.done || !b.streamed
          ? new StreamFailure(StreamFailure.Cause.EMPTY, b.status, "HTTP " + b.status + " but no output")
          : new StreamFailure(StreamFailure.Cause.NO_FINISH, b.status,
              "the stream ended before any output and without [DONE]");
    }
    if (b.streamed && !b.done && b.finishReason == null) {
      return new StreamFailure(StreamFailure.Cause.NO_FINISH, b.status,
          "the stream ended after " + b.events + " events without a finish_reason or [DONE]");
    }
    return null;
  }
}
