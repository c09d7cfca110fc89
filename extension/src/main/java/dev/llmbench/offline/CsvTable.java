package dev.llmbench.offline;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.format.Carriage;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import dev.llmbench.server.DeploymentDescription;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sweep table as CSV, one row per level, with a header. Columns are matched by name, in any case and
 * order: {@code concurrency} (or {@code c}, {@code max_concurrency}) or {@code rate} ({@code request_rate}),
 * {@code requests} ({@code num_prompts}) or {@code completed}, {@code failed} ({@code errors}), {@code wall}
 * ({@code duration}, seconds), {@code tok/s} ({@code output_throughput}), optionally {@code max_tokens},
 * {@code total_output_tokens}, {@code total_input_tokens}, and latencies named by a statistic and a metric:
 * {@code mean_e2el_ms}, {@code p99_ttft_ms}, {@code lat_avg}, {@code ttft_p99} (statistics mean, avg, median,
 * std, pNN; metrics e2el, e2e, lat, latency, ttft, tpot, itl; milliseconds with {@code _ms}, else seconds).
 */
final class CsvTable {

  private static final Pattern STAT = Pattern.compile("mean|avg|median|std|p\\d+(\\.\\d+)?");
  private static final Map<String, Metric> METRICS = Map.of("e2el", Metric.E2E_LATENCY, "e2e", Metric.E2E_LATENCY,
      "lat", Metric.E2E_LATENCY, "latency", Metric.E2E_LATENCY, "ttft", Metric.TTFT, "tpot", Metric.TPOT, "itl", Metric.ITL);
  static final String EXAMPLE = "concurrency,requests,failed,wall_s,output_throughput,mean_e2el_ms,p99_e2el_ms,mean_ttft_ms";

  /** How a table carries each metric ({@link Carriage}), as {@link #write} writes it and {@link #read} reads it. */
  static final Map<Metric, Carriage> CARRIES = Carriage.table(
      Map.entry(Metric.OUTPUT_THROUGHPUT, Carriage.as("output_throughput (tok/s)", "as written")),
      Map.entry(Metric.TOTAL_TOKEN_THROUGHPUT, Carriage.as("output_throughput, total_input_tokens, duration", "derived")),
      Map.entry(Metric.REQUEST_THROUGHPUT, Carriage.as("completed, duration", "derived")),
      Map.entry(Metric.GOODPUT, Carriage.not("a table has no SLO")),
      Map.entry(Metric.PEAK_OUTPUT_THROUGHPUT, Carriage.not("a table has no per-second counts")),
      Map.entry(Metric.SLO_ATTAINMENT, Carriage.not("a table has no SLO")),
      Map.entry(Metric.ERROR_RATE, Carriage.as("requests, failed", "failed / requests")),
      Map.entry(Metric.TTFT, Carriage.as("mean_/median_/std_/pNN_ttft_ms", "its statistics")),
      Map.entry(Metric.TTFO, Carriage.not("no column names it")),
      Map.entry(Metric.ITL_PER_TOKEN, Carriage.not("no column names it")),
      Map.entry(Metric.TPOT, Carriage.as("mean_/median_/std_/pNN_tpot_ms", "its statistics")),
      Map.entry(Metric.ITL, Carriage.as("mean_/median_/std_/pNN_itl_ms", "its statistics")),
      Map.entry(Metric.E2E_LATENCY, Carriage.as("mean_/median_/std_/pNN_e2el_ms", "its statistics")),
      Map.entry(Metric.QUEUE_TIME, Carriage.not("no column names it")),
      Map.entry(Metric.INPUT_THROUGHPUT, Carriage.not("no column names it")),
      Map.entry(Metric.UNPARSED_RATE, Carriage.not("no column names it")),
      Map.entry(Metric.TOOL_CALL_TTFT, Carriage.not("no column names it")));

  private CsvTable() {}

  /**
   * Levels as a table {@link #read} reads back: the load, counts, window and throughput, and each latency's
   * mean, median, standard deviation and {@code percentiles} under vLLM's names, in milliseconds.
   */
  static String write(List<? extends SweepLevelResult> levels, List<Double> percentiles) {
    List<Metric> latencies = List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2E_LATENCY);
    List<String> header = new ArrayList<>(List.of("label", "concurrency", "rate", "max_tokens", "requests", "failed", "duration",
        "output_throughput", "total_input_tokens"));
    List<String> stats = new ArrayList<>(List.of("mean", "median", "std"));
    percentiles.forEach(p -> stats.add(Formats.percentile(p)));
    for (Metric m : latencies) stats.forEach(st -> header.add(st + "_" + m.vllmName().orElseThrow() + "_ms"));
    StringBuilder out = new StringBuilder(String.join(",", header)).append('\n');
    for (SweepLevelResult l : levels) {
      List<String> row = new ArrayList<>();
      row.add("\"" + l.label().replace("\"", "\"\"") + "\"");
      boolean open = l.load() instanceof LoadShape.OpenLoop;
      row.add(open && l.concurrency() <= 0 ? "" : Integer.toString(l.concurrency()));
      row.add(l.load() instanceof LoadShape.OpenLoop o ? Double.toString(o.rate().perSecond()) : "");
      row.add(Integer.toString(l.maxTokens()));
      row.add(Long.toString(l.requestCount()));
      row.add(Long.toString(l.failed()));
      row.add(Double.toString(l.window().toNanos() / 1e9));
      row.add(Double.toString(l.outputThroughput().perSecond()));
      row.add(Long.toString(l.promptTokens()));
      for (Metric m : latencies) {
        dev.llmbench.result.Distribution d = m.distributionOf(l);
        row.add(ms(d.mean()));
        row.add(ms(d.percentile(50)));
        row.add(ms(d.stdDev()));
        percentiles.forEach(p -> row.add(ms(d.percentile(p))));
      }
      out.append(String.join(",", row)).append('\n');
    }
    return out.toString();
  }

  private static String ms(Optional<Duration> d) {
    return d.map(v -> Double.toString(v.toNanos() / 1e6)).orElse("");
  }

  static List<SweepLevelResult> read(Path file, Optional<DeploymentDescription> deployment) {
    List<Map<String, String>> rows = new ArrayList<>();
    try (MappingIterator<Map<String, String>> it = new CsvMapper().readerForMapOf(String.class)
        .with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
      while (it.hasNext()) rows.add(it.next());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(file + " is not a readable CSV table: " + e.getMessage(), e);
    }
    if (rows.isEmpty()) throw new IllegalArgumentException(file + " has no rows; expected a header like " + EXAMPLE);
    List<SweepLevelResult> levels = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, String> row = normalise(rows.get(i));
      try {
        levels.add(level(row, file, deployment));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + " row " + (i + 2) + ": " + e.getMessage(), e);
      }
    }
    return levels;
  }

  /** Header names in lower case, anything but letters, digits and dots as one underscore: {@code tok/s} is {@code tok_s}. */
  private static Map<String, String> normalise(Map<String, String> row) {
    Map<String, String> out = new LinkedHashMap<>();
    row.forEach((k, v) -> {
      String key = k.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "_").replaceAll("^_|_$", "");
      if (v != null && !v.isBlank()) out.put(key, v.strip());
    });
    return out;
  }

  /** One row, its header names normalised ({@link #normalise}): what a CSV row or a printed table's line gives. */
  static SweepLevelResult level(Map<String, String> row, Path file, Optional<DeploymentDescription> deployment) {
    Optional<Double> concurrency = number(row, "concurrency", "c", "max_concurrency");
    Optional<Double> rate = number(row, "rate", "request_rate", "rps");
    LoadShape load;
    String label;
    if (concurrency.isPresent() && rate.isEmpty()) {
      int c = (int) Math.round(concurrency.get());
      load = new LoadShape.ClosedLoop(c);
      label = "C=" + c;
    } else if (rate.isPresent()) {
      OptionalInt cap = concurrency.map(c -> OptionalInt.of((int) Math.round(c))).orElse(OptionalInt.empty());
      load = new LoadShape.OpenLoop(Rate.requestsPerSecond(rate.get()), 1, cap);
      label = "rate=" + Formats.number(rate.get()) + "/s";
    } else {
      throw new IllegalArgumentException("no concurrency or rate column; expected a header like " + EXAMPLE);
    }
    label = Optional.ofNullable(row.get("label")).orElse(label);
    Optional<Double> requests = number(row, "requests", "num_prompts", "n", "total");
    Optional<Double> completed = number(row, "completed", "ok", "succeeded");
    long failed = Math.round(number(row, "failed", "errors", "err").orElse(0.0));
    long total = Math.round(requests.orElseGet(() -> completed.map(c -> c + failed).orElseThrow(() ->
        new IllegalArgumentException("no requests or completed column"))));
    long ok = Math.round(completed.orElse((double) (total - failed)));
    double wall = number(row, "wall", "wall_s", "duration", "duration_s", "window", "window_s")
        .orElseThrow(() -> new IllegalArgumentException("no wall (or duration) column, in seconds"));
    if (!(wall > 0)) throw new IllegalArgumentException("wall must be a positive number of seconds, was " + wall);
    Optional<Double> throughput = number(row, "tok_s", "output_throughput", "throughput", "output_tok_s");
    double perSecond = throughput.orElseGet(() -> number(row, "total_output_tokens", "output_tokens").map(t -> t / wall)
        .orElseThrow(() -> new IllegalArgumentException("no tok/s (output_throughput) or total_output_tokens column")));
    long promptTokens = Math.round(number(row, "total_input_tokens", "input_tokens", "prompt_tokens").orElse(0.0));
    int maxTokens = (int) Math.round(number(row, "max_tokens").orElse(0.0));
    return new SummaryLevel(label, load, maxTokens, "table:" + file.getFileName(), total, ok,
        Duration.ofNanos(Math.round(wall * 1e9)), perSecond, promptTokens, latencies(row, (int) ok), deployment,
        List.of("read from a table: no per-request data"));
  }

  /** Every latency column, by metric: {@code <stat>_<metric>[_ms|_s]} or {@code <metric>_<stat>[_ms|_s]}. */
  private static Map<Metric, SummaryDistribution> latencies(Map<String, String> row, int count) {
    Map<Metric, Map<String, Duration>> stats = new EnumMap<>(Metric.class);
    row.forEach((key, value) -> {
      List<String> parts = new ArrayList<>(List.of(key.split("_")));
      double unit = 1e9;
      if (parts.size() == 3 && (parts.get(2).equals("ms") || parts.get(2).equals("s"))) {
        unit = parts.remove(2).equals("ms") ? 1e6 : 1e9;
      }
      if (parts.size() != 2) return;
      String stat = STAT.matcher(parts.get(0)).matches() ? parts.get(0) : parts.get(1);
      String metric = stat.equals(parts.get(0)) ? parts.get(1) : parts.get(0);
      if (!STAT.matcher(stat).matches() || !METRICS.containsKey(metric)) return;
      double v;
      try {
        v = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("column " + key + " is not a number: " + value);
      }
      stats.computeIfAbsent(METRICS.get(metric), m -> new LinkedHashMap<>()).put(stat, Duration.ofNanos(Math.round(v * unit)));
    });
    Map<Metric, SummaryDistribution> out = new EnumMap<>(Metric.class);
    stats.forEach((metric, s) -> out.put(metric, summary(s, count)));
    return out;
  }

  static SummaryDistribution summary(Map<String, Duration> stats, int count) {
    Map<Double, Duration> percentiles = new LinkedHashMap<>();
    stats.forEach((stat, d) -> {
      Matcher p = Pattern.compile("p(\\d+(\\.\\d+)?)").matcher(stat);
      if (p.matches()) percentiles.put(Double.parseDouble(p.group(1)), d);
      if (stat.equals("median")) percentiles.put(50.0, d);
    });
    Duration mean = stats.containsKey("mean") ? stats.get("mean") : stats.get("avg");
    return new SummaryDistribution(count, mean, stats.get("std"), percentiles);
  }

  private static Optional<Double> number(Map<String, String> row, String... names) {
    for (String n : names) {
      String v = row.get(n);
      if (v == null) continue;
      try {
        return Optional.of(Double.parseDouble(v));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("column " + n + " is not a number: " + v);
      }
    }
    return Optional.empty();
  }
}
