package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.Metric;
import dev.llmbench.internal.metrics.HistogramText;
import dev.llmbench.internal.metrics.RequestMetrics;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * A level's latency distributions as HdrHistograms, which add up exactly across shards, runs and machines
 * (Gatling and wrk2 keep theirs the same way). Stored in the level's JSON under {@code llmbench.histograms},
 * one base64 string of the compressed histogram per latency metric, values in microseconds, as HdrHistogram's
 * own log files hold them. Built from the file's per-request records, so that the histogram of a union of
 * records is the sum of their histograms, to the count. Exact percentiles still come from the raw samples.
 */
@API(status = INTERNAL)
public final class LatencyHistograms {

  /** Three significant digits: every value is kept within 0.1%. */
  public static final int SIGNIFICANT_DIGITS = 3;

  private static final List<Metric> LATENCIES = List.of(Metric.TTFT, Metric.TTFO, Metric.TPOT, Metric.ITL,
      Metric.E2E_LATENCY, Metric.QUEUE_TIME);

  private LatencyHistograms() {}

  /** One histogram per latency metric, microseconds; successful requests only, except queue time (all sent). */
  public static Map<Metric, Histogram> of(List<RequestRecord> records) {
    Map<Metric, Histogram> h = new EnumMap<>(Metric.class);
    LATENCIES.forEach(m -> h.put(m, new Histogram(SIGNIFICANT_DIGITS)));
    for (RequestRecord r : records) {
      record(h.get(Metric.QUEUE_TIME), r.queueMs());
      if (r.error() != null) continue;
      record(h.get(Metric.TTFT), r.ttftMs());
      record(h.get(Metric.TTFO), r.ttfoMs());
      record(h.get(Metric.TPOT), r.tpotMs());
      record(h.get(Metric.E2E_LATENCY), r.e2eMs());
      List<Double> arrivals = r.chunkArrivalsMs();
      for (int i = 1; i < arrivals.size(); i++) h.get(Metric.ITL).recordValue(micros(arrivals.get(i)) - micros(arrivals.get(i - 1)));
    }
    return h;
  }

  private static void record(Histogram h, Double ms) {
    if (ms != null) h.recordValue(Math.max(0, micros(ms)));
  }

  /** Records hold milliseconds to the microsecond: this gives that microsecond back exactly. */
  public static long micros(double ms) {
    return Math.round(ms * 1e3);
  }

  /**
   * A level's histograms: from its records, except ITL, which comes from the requests' arrival times (the
   * records hold them only with chunk timings on), rounded to the microsecond as the records would hold them.
   */
  static ObjectNode json(List<RequestRecord> records, List<RequestMetrics> metrics) {
    Map<Metric, Histogram> h = of(records);
    Histogram itl = new Histogram(SIGNIFICANT_DIGITS);
    for (RequestMetrics m : metrics) {
      if (!m.succeeded()) continue;
      long start = m.trace().startNanos();
      long[] previous = {Long.MIN_VALUE};
      m.trace().forEachTokenNanos(t -> {
        long micros = Math.round((t - start) / 1e3);
        if (previous[0] != Long.MIN_VALUE) itl.recordValue(Math.max(0, micros - previous[0]));
        previous[0] = micros;
      });
    }
    h.put(Metric.ITL, itl);
    ObjectNode node = ResultJson.MAPPER.createObjectNode();
    node.put("unit", "us");
    node.put("significant_digits", SIGNIFICANT_DIGITS);
    h.forEach((metric, histogram) -> node.put(metric.key(), encode(histogram)));
    return node;
  }

  /** The histograms a level's JSON holds under {@code llmbench.histograms}; empty when it holds none. */
  public static Map<Metric, Histogram> read(JsonNode histograms) {
    Map<Metric, Histogram> h = new EnumMap<>(Metric.class);
    for (Metric m : LATENCIES) {
      if (histograms.path(m.key()).isTextual()) h.put(m, decode(histograms.get(m.key()).asText()));
    }
    return h;
  }

  /** {@link HistogramText#encode}: the form the level document keeps a histogram in. */
  public static String encode(Histogram histogram) {
    return HistogramText.encode(histogram);
  }

  public static Histogram decode(String base64) {
    return HistogramText.decode(base64);
  }
}
