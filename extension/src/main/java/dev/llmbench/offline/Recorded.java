package dev.llmbench.offline;

import dev.llmbench.EndpointInfo;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.Usage;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.LevelExtras;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.StopReason;
import dev.llmbench.server.ServerMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Requests and levels rebuilt from what files recorded of them, so they read as a level measured now. */
final class Recorded {

  private static final Pattern HTTP = Pattern.compile("^HTTP (\\d{3})(?::\\s*(.*))?$", Pattern.DOTALL);

  private Recorded() {}

  /**
   * One request: times in nanoseconds on one clock; each token chunk carries {@code tokensPerChunk} tokens,
   * the chunks before {@code firstContentNanos} being reasoning.
   *
   * @param chunks arrival of each token-bearing chunk
   */
  static RequestTrace request(long scheduledNanos, long startNanos, Instant startedAt, long endNanos, List<Long> chunks,
      long firstContentNanos, Usage usage, Map<String, Double> timings, RequestFailure failure, String finishReason) {
    RequestTrace.Builder b = RequestTrace.builder().times(scheduledNanos, startNanos, endNanos).startedAt(startedAt);
    StringBuilder content = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    for (long at : chunks) {
      boolean isReasoning = at < firstContentNanos;
      b.token(at, !isReasoning, isReasoning);
      (isReasoning ? reasoning : content).append(isReasoning ? "r" : "t");
    }
    return b.text(content.toString(), reasoning.toString()).finishReason(finishReason).usage(usage).serverTimings(timings)
        .promptTokensEstimate(usage == null || usage.promptTokens() == null ? 0 : usage.promptTokens()).streamed(true)
        .status(failure == null ? 200 : failure.status()).failure(failure).build();
  }

  /** A failure as a report wrote it ({@code HTTP 503: ...}, {@code TIMEOUT: ...}) or as vLLM did (free text). */
  static RequestFailure failure(String text) {
    Matcher http = HTTP.matcher(text.strip());
    if (http.matches()) return new RequestFailure(ErrorKind.HTTP_STATUS, Integer.parseInt(http.group(1)), orEmpty(http.group(2)));
    int colon = text.indexOf(':');
    String head = colon < 0 ? text.strip() : text.substring(0, colon).strip();
    for (ErrorKind k : ErrorKind.values()) {
      if (k.name().equals(head)) return new RequestFailure(k, 0, colon < 0 ? "" : text.substring(colon + 1).strip());
    }
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("timeout") || lower.contains("timed out")) return new RequestFailure(ErrorKind.TIMEOUT, 0, text);
    if (lower.contains("too many requests")) return new RequestFailure(ErrorKind.HTTP_STATUS, 429, text);
    if (lower.contains("service unavailable")) return new RequestFailure(ErrorKind.HTTP_STATUS, 503, text);
    if (lower.contains("internal server error")) return new RequestFailure(ErrorKind.HTTP_STATUS, 500, text);
    if (lower.contains("bad request")) return new RequestFailure(ErrorKind.HTTP_STATUS, 400, text);
    if (lower.contains("payload") || lower.contains("reset") || lower.contains("disconnected")) {
      return new RequestFailure(ErrorKind.CUT_STREAM, 0, text);
    }
    if (lower.contains("connect")) return new RequestFailure(ErrorKind.CONNECTION, 0, text);
    // What is left is most often the error a server sent mid-stream, which vLLM's client records as text.
    return new RequestFailure(ErrorKind.STREAM_ERROR, 0, text);
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** A level of recorded requests, measured as if now: every figure, interval and finding from them. */
  static MeasuredLevel level(String label, LoadShape load, int maxTokens, String source, EndpointInfo endpoint,
      List<RequestTrace> traces, List<Double> percentiles, StopReason stopReason, ServerMetrics server, LevelExtras extras) {
    LevelPlan plan = new LevelPlan(label, load, new StopRule.Count(Math.max(1, traces.size())),
        new WorkloadPlan(Math.max(1, maxTokens), 0, true, null, PromptSource.recorded(source)), 0, 0);
    return new MeasuredLevel(plan, endpoint, traces.stream().map(RequestMetrics::of).toList(), ServiceLevels.none(),
        percentiles, stopReason, server, List.of(), extras);
  }
}
