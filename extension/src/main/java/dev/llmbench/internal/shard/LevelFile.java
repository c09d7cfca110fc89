package dev.llmbench.internal.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.Metric;
import dev.llmbench.client.ErrorKind;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.client.TokenSource;
import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.LatencyHistograms;
import dev.llmbench.internal.report.RequestRecord;
import dev.llmbench.internal.report.ResultJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * A shard's level file ({@code <sweep>/C=8.json}) as the merge reads it: its per-request records, turned
 * back into request metrics on the merged timeline, and its latency histograms, as {@link ResultJson#readLevel}
 * reads the level document.
 *
 * @param requests   every request, failed ones included, as the file recorded it
 * @param histograms the latency histograms it carried, by metric; empty for an older file
 * @param serverMetrics whether the shard read the server's {@code /metrics} around the level
 */
@API(status = INTERNAL)
public record LevelFile(Path file, String label, List<RequestRecord> requests, Map<Metric, Histogram> histograms,
    boolean serverMetrics) {

  private static final ObjectMapper JSON = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public static LevelFile read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    if (!root.path(ResultJson.REQUESTS).isArray()) {
      throw new IllegalArgumentException(file + " holds no per-request records ('requests'): the merge needs them to put "
          + "the shards' requests on one timeline");
    }
    ResultJson.LevelDocument level = ResultJson.readLevel(root);
    return new LevelFile(file, root.path(ResultJson.OWN).path(ResultJson.LABEL).asText(), level.requests(), level.histograms(),
        level.serverMetrics().isPresent());
  }

  /**
   * The requests as metrics on the merged timeline: {@code levelStart} is where this shard's first send falls on
   * it (nanoseconds from the merged level's first send), {@code firstSend} the same moment on the wall clock.
   * Times are back to the records' microsecond; every figure derived from them is what the records say.
   */
  public List<RequestMetrics> metrics(long levelStart, Instant firstSend) {
    List<RequestMetrics> metrics = new ArrayList<>(requests.size());
    for (RequestRecord r : requests) metrics.add(metrics(r, levelStart, firstSend));
    return metrics;
  }

  private static RequestMetrics metrics(RequestRecord r, long levelStart, Instant firstSend) {
    long offset = nanos(r.startOffsetMs());
    long start = levelStart + offset;
    long e2e = nanos(r.e2eMs());
    RequestFailure failure = failure(r.error());
    RequestTrace.Builder b = RequestTrace.builder().times(start - nanos(r.queueMs()), start, start + e2e)
        .startedAt(firstSend.plusNanos(offset)).finishReason(r.finishReason()).promptTokensEstimate(r.promptTokens())
        .streamed(!r.chunkArrivalsMs().isEmpty()).failure(failure);
    long ttfo = r.ttfoMs() == null ? Long.MAX_VALUE : nanos(r.ttfoMs());
    for (double ms : r.chunkArrivalsMs()) {
      long at = nanos(ms);
      boolean content = at >= ttfo; // before the first content token, a token chunk carried reasoning
      b.token(start + at, content, !content);
    }
    RequestTrace trace = r.withRecorded(b.build());
    int chunks = trace.tokenChunks();
    TokenSource source = TokenSource.valueOf(r.tokenSource());
    Duration queue = Duration.ofNanos(nanos(r.queueMs()));
    if (failure != null) {
      return new RequestMetrics(trace, queue, Duration.ofNanos(e2e), Optional.empty(), Optional.empty(), Optional.empty(),
          0, 0, source, r.promptTokens(), false);
    }
    int out = r.outputTokens();
    boolean mismatch = source == TokenSource.SERVER_USAGE && chunks > 0 && out > 0
        && Math.abs(out - chunks) > RequestMetrics.MISMATCH_TOLERANCE * out;
    return new RequestMetrics(trace, queue, Duration.ofNanos(e2e), duration(r.ttftMs()), duration(r.ttfoMs()),
        duration(r.tpotMs()), out, r.reasoningTokens(), source, r.promptTokens(), mismatch);
  }

  /**
   * Rewrites a merged level file so that the statistics of {@code histograms}' latencies ({@code mean_itl_ms},
   * {@code p99_itl_ms}, ...) and its stored histograms come from those histograms: for latencies of which the
   * records hold fewer samples than the shards measured. HdrHistogram's values are within 0.1%.
   */
  public static void useHistograms(Path file, Map<Metric, Histogram> histograms, List<Double> percentiles) {
    try {
      ObjectNode root = (ObjectNode) JSON.readTree(Files.readString(file));
      ObjectNode own = (ObjectNode) root.get(ResultJson.OWN);
      for (Map.Entry<Metric, Histogram> e : histograms.entrySet()) {
        Metric m = e.getKey();
        Histogram h = e.getValue();
        ObjectNode node = ResultJson.statisticsOf(m, root);
        node.put(ResultJson.statistic("mean", m), h.getMean() / 1e3);
        node.put(ResultJson.statistic("median", m), h.getValueAtPercentile(50) / 1e3);
        node.put(ResultJson.statistic("std", m), h.getStdDeviation() / 1e3);
        for (double p : percentiles) node.put(ResultJson.statistic(Formats.percentile(p), m), h.getValueAtPercentile(p) / 1e3);
        own.withObjectProperty(ResultJson.HISTOGRAMS).put(m.key(), LatencyHistograms.encode(h));
      }
      Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rewrite " + file + ": " + e.getMessage(), e);
    }
  }

  /** {@code HTTP 503: overloaded} or {@code TIMEOUT: ...}, as {@link RequestFailure#toString()} wrote it. */
  static RequestFailure failure(String error) {
    if (error == null) return null;
    int colon = error.indexOf(": ");
    String key = colon < 0 ? error : error.substring(0, colon);
    String message = colon < 0 ? "" : error.substring(colon + 2);
    if (key.startsWith("HTTP ")) {
      try {
        return new RequestFailure(ErrorKind.HTTP_STATUS, Integer.parseInt(key.substring(5)), message);
      } catch (NumberFormatException e) {
        return new RequestFailure(ErrorKind.CORRUPT_STREAM, 0, error);
      }
    }
    try {
      return new RequestFailure(ErrorKind.valueOf(key), 0, message);
    } catch (IllegalArgumentException e) {
      return new RequestFailure(ErrorKind.CORRUPT_STREAM, 0, error); // a kind this version does not know
    }
  }

  private static Optional<Duration> duration(Double ms) {
    return ms == null ? Optional.empty() : Optional.of(Duration.ofNanos(nanos(ms)));
  }

  /** Records hold milliseconds to the microsecond: back to that microsecond, exactly. */
  private static long nanos(double ms) {
    return LatencyHistograms.micros(ms) * 1_000;
  }
}
