package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.RequestFailure;
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
 * {@code token_chunks} always says how many there were.
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
    String error) {

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
        r.failure().map(RequestFailure::toString).orElse(null));
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
