package dev.llmbench.internal.vllm;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.Rate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.llmbench.Metric;
import dev.llmbench.internal.format.Carriage;
import dev.llmbench.internal.vllm.VllmRun.Array;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * The one reader of the files {@code vllm bench serve --save-result} writes, for the baseline and the
 * offline analysis both: one JSON object per run, in a file of its own, a line of an
 * {@code --append-result} file, or an element of {@code vllm bench sweep}'s {@code summary.json}; each
 * object read into a {@link VllmRun}. Field names are serve.py's ({@code vllm/benchmarks/serve.py}): the
 * summary's figures by {@link Metric#vllmName()}, statistics as {@code mean_X_ms}, {@code median_X_ms},
 * {@code std_X_ms} and {@code pNN_X_ms}, per-request arrays in seconds.
 *
 * <p><b>A failed request</b> is one whose {@code errors} entry is not empty: serve.py writes every
 * request's {@code RequestFuncOutput.error} there, {@code ""} for a success. Without
 * {@code --save-detailed} serve.py drops {@code errors} but keeps {@code latencies}; then a request failed
 * when its latency is not positive, as serve.py leaves a failure's {@code latency} at its default of 0
 * (and its {@code ttfts} and {@code output_lens} entries at 0). {@code completed} and {@code failed} count
 * the same split.
 */
@API(status = INTERNAL)
public final class VllmResultFiles {

  /**
   * Fails on a second value, so that JSON Lines are not read as their first line alone; takes the
   * {@code Infinity} Python's {@code json} writes for an unbounded rate.
   */
  private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final Pattern CONCURRENCY_IN_NAME = Pattern.compile("-concurrency(\\d+)-");
  /** {@code mean_ttft_ms}, {@code p99.9_itl_ms}: a statistic and a latency metric's vLLM name. */
  private static final Pattern STATISTIC = Pattern.compile("^(mean|median|std|p\\d+(?:\\.\\d+)?)_([a-z0-9]+)_ms$");

  /**
   * How a {@code vllm bench serve} result carries each metric ({@link Carriage}), as a level read from it
   * without {@code --save-detailed} (the summary; the offline analysis's {@code SummaryLevel}) shows it.
   */
  public static final Map<Metric, Carriage> CARRIES = Carriage.table(
      Map.entry(Metric.OUTPUT_THROUGHPUT, Carriage.as("output_throughput", "as written; total_output_tokens / duration without it")),
      Map.entry(Metric.TOTAL_TOKEN_THROUGHPUT, Carriage.as("output_throughput, total_input_tokens, duration", "derived")),
      Map.entry(Metric.REQUEST_THROUGHPUT, Carriage.as("completed, duration", "derived")),
      Map.entry(Metric.GOODPUT, Carriage.not("request_goodput is read into VllmRun but a summary level has no SLO to show it against")),
      Map.entry(Metric.PEAK_OUTPUT_THROUGHPUT, Carriage.not("max_output_tokens_per_s is read into VllmRun; a summary level shows no peak")),
      Map.entry(Metric.SLO_ATTAINMENT, Carriage.not("vLLM writes none")),
      Map.entry(Metric.ERROR_RATE, Carriage.as("completed, failed", "failed / (completed + failed)")),
      Map.entry(Metric.TTFT, Carriage.as("mean_/median_/std_/pNN_ttft_ms", "its statistics")),
      Map.entry(Metric.TTFO, Carriage.not("vLLM does not tell reasoning from content")),
      Map.entry(Metric.ITL_PER_TOKEN, Carriage.not("vLLM's itls are per chunk")),
      Map.entry(Metric.TPOT, Carriage.as("mean_/median_/std_/pNN_tpot_ms", "its statistics")),
      Map.entry(Metric.ITL, Carriage.as("mean_/median_/std_/pNN_itl_ms", "its statistics")),
      Map.entry(Metric.E2E_LATENCY, Carriage.as("mean_/median_/std_/pNN_e2el_ms", "its statistics")),
      Map.entry(Metric.QUEUE_TIME, Carriage.not("queue_times and *_client_queue_time_ms are not read")),
      Map.entry(Metric.INPUT_THROUGHPUT, Carriage.not("vLLM's serve result has no inputs per second")),
      Map.entry(Metric.UNPARSED_RATE, Carriage.not("vLLM's serve result does not check replies")),
      Map.entry(Metric.TOOL_CALL_TTFT, Carriage.not("vLLM's serve result has no tool-call timing")));

  private VllmResultFiles() {}

  /** Whether {@code node} looks like a {@code vllm bench serve} result (and not a level LLMBench wrote). */
  public static boolean isResult(JsonNode node) {
    return node.isObject() && node.has("duration") && node.has("completed") && !node.has("llmbench");
  }

  /**
   * The result files at {@code path}: the file itself whatever its name, or a folder's {@code *.json} files
   * by name, without the PyTorch-format copies ({@code *.pytorch.json}) serve.py writes beside them.
   *
   * @throws IllegalArgumentException naming the path when it cannot be listed
   */
  public static List<Path> files(Path path) {
    try (Stream<Path> listing = Files.isDirectory(path) ? Files.list(path) : Stream.of(path)) {
      return listing.filter(p -> p.equals(path) || p.toString().endsWith(".json") && !p.toString().endsWith(".pytorch.json"))
          .sorted().toList();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the vLLM results " + path + ": " + e.getMessage(), e);
    }
  }

  /** Every run in {@code file}, each object read as one ({@link #objects}, {@link #run}). */
  public static List<VllmRun> runs(Path file) {
    return objects(file).stream().map(o -> run(o, file)).toList();
  }

  /** One run: its summary, statistics and per-request arrays, with {@linkplain VllmResultFiles the rule} for a failure. */
  public static VllmRun run(JsonNode r, Path file) {
    Map<Metric, Double> values = new EnumMap<>(Metric.class);
    Map<String, Metric> latencies = new LinkedHashMap<>();
    for (Metric m : Metric.values()) {
      if (m.vllmName().isEmpty()) continue;
      if (m.isLatency()) latencies.put(m.vllmName().get(), m);
      else if (r.path(m.vllmName().get()).isNumber()) values.put(m, r.path(m.vllmName().get()).asDouble());
    }
    Map<Metric, Map<String, Double>> statistics = new EnumMap<>(Metric.class);
    r.fields().forEachRemaining(e -> {
      Matcher m = STATISTIC.matcher(e.getKey());
      if (!m.matches() || !e.getValue().isNumber() || !latencies.containsKey(m.group(2))) return;
      statistics.computeIfAbsent(latencies.get(m.group(2)), k -> new LinkedHashMap<>()).put(m.group(1), e.getValue().asDouble());
    });
    JsonNode latency = r.path("latencies");
    int n = latency.isArray() ? latency.size() : 0;
    Set<Array> arrays = EnumSet.noneOf(Array.class);
    for (Array a : Array.values()) {
      if (n > 0 && r.path(a.field()).isArray() && r.path(a.field()).size() == n) arrays.add(a);
    }
    List<VllmRun.Request> requests = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double seconds = latency.get(i).asDouble();
      String error = arrays.contains(Array.ERRORS) ? r.path("errors").get(i).asText("") : "";
      double[] itls = null;
      if (arrays.contains(Array.ITLS)) {
        JsonNode gaps = r.path("itls").get(i);
        itls = new double[gaps.size()];
        for (int g = 0; g < itls.length; g++) itls[g] = gaps.get(g).asDouble();
      }
      boolean failed = arrays.contains(Array.ERRORS) ? !error.isEmpty() : seconds <= 0;
      requests.add(new VllmRun.Request(at(r, Array.START_TIMES, arrays, i), at(r, Array.TTFTS, arrays, i), itls, seconds,
          arrays.contains(Array.INPUT_LENS) ? r.path("input_lens").get(i).asInt() : -1,
          arrays.contains(Array.OUTPUT_LENS) ? r.path("output_lens").get(i).asInt() : -1, error, failed));
    }
    return new VllmRun(file.getFileName().toString(), load(r, file),
        r.has("run_number") ? OptionalInt.of(r.path("run_number").asInt()) : OptionalInt.empty(), r.path("duration").asDouble(),
        r.path("completed").asInt(), r.path("failed").asInt(0), r.path("total_input_tokens").asLong(),
        r.path("total_output_tokens").asLong(), values, statistics, arrays, requests);
  }

  private static double at(JsonNode r, Array array, Set<Array> arrays, int i) {
    return arrays.contains(array) ? r.path(array.field()).get(i).asDouble() : Double.NaN;
  }

  /**
   * Every JSON object in {@code file}: one object, an array of them, or one per line.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read or is neither JSON nor JSON Lines
   */
  public static List<JsonNode> objects(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
    List<JsonNode> out = new ArrayList<>();
    try {
      JsonNode whole = JSON.readTree(text);
      if (whole.isArray()) whole.forEach(out::add);
      else if (whole != null && !whole.isMissingNode()) out.add(whole);
    } catch (JsonProcessingException e) {
      for (String line : text.split("\\R")) {
        if (line.isBlank()) continue;
        try {
          out.add(JSON.readTree(line));
        } catch (JsonProcessingException lineError) {
          throw new IllegalArgumentException(file + " is neither JSON nor JSON Lines: " + lineError.getOriginalMessage(), e);
        }
      }
    }
    return out;
  }

  /**
   * The run's load: a closed loop of {@code max_concurrency} (or of the {@code -concurrencyN-} in the file's
   * name) at an infinite {@code request_rate}, an open loop at a finite one; empty for an infinite rate
   * without a cap, which sent every prompt at once.
   */
  public static Optional<LoadShape> load(JsonNode run, Path file) {
    JsonNode rate = run.path("request_rate");
    boolean infinite = rate.isMissingNode() || rate.isNull() || rate.isTextual() && rate.asText().startsWith("inf")
        || rate.isNumber() && Double.isInfinite(rate.asDouble());
    OptionalInt cap = run.path("max_concurrency").isNumber() ? OptionalInt.of(run.path("max_concurrency").asInt())
        : concurrencyInName(file);
    if (!infinite) {
      return Optional.of(new LoadShape.OpenLoop(Rate.requestsPerSecond(rate.asDouble()), run.path("burstiness").asDouble(1.0), cap));
    }
    return cap.isPresent() ? Optional.of(new LoadShape.ClosedLoop(cap.getAsInt())) : Optional.empty();
  }

  private static OptionalInt concurrencyInName(Path file) {
    Matcher m = CONCURRENCY_IN_NAME.matcher(file.getFileName().toString());
    return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
  }
}
