package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apiguardian.api.API;

/**
 * One request as exported to JSON and CSV. Times in milliseconds; {@code start_offset_ms} and
 * {@code chunk_arrivals_ms} are relative to the level's first send and to this request's send.
 * {@code chunk_arrivals_ms} is empty unless {@link ReportOptions#chunkTimings()} asked for it;
 * {@code token_chunks} always says how many there were. The fields after {@code error} are written only where the
 * request has them (a session's turn, a checked reply, an embeddings answer, a tool call, a server that counts its
 * cache), so that a shard merge and an offline read give the same per-turn, reply and embeddings figures.
 *
 * @param turn               the request's turn in its session, from 1
 * @param cachedPromptTokens prompt tokens the server served from its cache, where it said
 * @param embeddings         embedding vectors an embeddings answer carried
 * @param toolCallTtftMs     time to the first tool-call chunk
 * @param replyParsed        whether a structured-output check found the reply parsed; null when none checked it
 * @param unparsedBecause    why the check found it unparsed
 * @param streamEndMs        when the body ended after send, when that was after its last choices chunk (a late usage
 *                           chunk and {@code [DONE]}); null otherwise: the level's window ends there, read back too
 */
@API(status = INTERNAL)
public record RequestRecord(
    int index,
    long startEpochMs,
    double startOffsetMs,
    double queueMs,
    Double ttftMs,
    Double ttfoMs,
    Double tpotMs,
    double e2eMs,
    int outputTokens,
    int reasoningTokens,
    int promptTokens,
    String tokenSource,
    int tokenChunks,
    List<Double> chunkArrivalsMs,
    String finishReason,
    String error,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer turn,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer cachedPromptTokens,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer embeddings,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double toolCallTtftMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean replyParsed,
    @JsonInclude(JsonInclude.Include.NON_NULL) String unparsedBecause,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double streamEndMs) {

  /** A record read from a file written without chunk timings may lack them: none, as written. */
  public RequestRecord {
    chunkArrivalsMs = chunkArrivalsMs == null ? List.of() : chunkArrivalsMs;
  }

  /** Every request of a level, in order, with offsets from the level's first send; no chunk timings. */
  public static List<RequestRecord> allOf(MeasuredLevel level) {
    return allOf(level, ReportOptions.DEFAULT);
  }

  /** Every request of a level, in order, with offsets from the level's first send. */
  public static List<RequestRecord> allOf(MeasuredLevel level, ReportOptions options) {
    List<RequestMetrics> all = level.metrics();
    long levelStart = all.stream().mapToLong(m -> m.trace().startNanos()).min().orElse(0);
    return IntStream.range(0, all.size()).mapToObj(i -> of(i, all.get(i), levelStart, options.chunkTimings())).toList();
  }

  public static RequestRecord of(int index, RequestMetrics r, long levelStartNanos, boolean chunkTimings) {
    long start = r.trace().startNanos();
    return new RequestRecord(index, r.trace().startedAt().toEpochMilli(), ms(start - levelStartNanos), ms(r.queueTime()),
        r.ttft().map(RequestRecord::ms).orElse(null), r.ttfo().map(RequestRecord::ms).orElse(null),
        r.tpot().map(RequestRecord::ms).orElse(null), ms(r.e2eLatency()), r.outputTokens(), r.reasoningTokens(),
        r.promptTokens(), r.tokenSource().name(), r.trace().tokenChunks(), chunkTimings ? arrivals(r, start) : List.of(),
        r.trace().finishReason(),
        r.failure().map(RequestFailure::toString).orElse(null), r.turn().isPresent() ? r.turn().getAsInt() : null,
        r.cachedPromptTokens().isPresent() ? r.cachedPromptTokens().getAsInt() : null,
        r.trace().embeddings() > 0 ? r.trace().embeddings() : null,
        r.trace().toolCallTtftNanos() >= 0 ? ms(r.trace().toolCallTtftNanos()) : null,
        r.replyChecked() ? !r.trace().replyUnparsed() : null, r.unparsedBecause().orElse(null),
        // The body's end when it came after the last choices chunk (a late usage chunk, [DONE]): the window ends there.
        r.trace().streamEndNanos() > r.trace().endNanos() ? ms(r.trace().streamEndNanos() - start) : null);
  }

  /**
   * {@code trace}, rebuilt from this record's times, with what else the record says of the request: its turn, its
   * reply's check, its embeddings, the prompt tokens served from cache, the time to its first tool call.
   */
  public RequestTrace withRecorded(RequestTrace trace) {
    RequestTrace t = trace.withRecorded(embeddings == null ? 0 : embeddings,
        cachedPromptTokens == null ? -1 : cachedPromptTokens,
        toolCallTtftMs == null ? -1 : LatencyHistograms.micros(toolCallTtftMs) * 1_000);
    if (turn != null) t = t.withTurn(turn - 1);
    if (replyParsed != null) t = t.withReplyCheck(replyParsed, unparsedBecause);
    if (streamEndMs != null) t = t.withStreamEnd(t.startNanos() + Math.round(streamEndMs * 1e6));
    return t;
  }

  private static List<Double> arrivals(RequestMetrics r, long start) {
    List<Double> ms = new ArrayList<>(r.trace().tokenChunks());
    r.trace().forEachTokenNanos(t -> ms.add(ms(t - start)));
    return ms;
  }

  static double ms(Duration d) {
    return ms(d.toNanos());
  }

  static double ms(long nanos) {
    return Math.round(nanos / 1e3) / 1e3; // microsecond resolution
  }
}
