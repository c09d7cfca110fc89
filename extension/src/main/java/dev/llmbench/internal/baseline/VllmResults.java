package dev.llmbench.internal.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.Metric;
import dev.llmbench.internal.compare.LevelSample;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.vllm.VllmResultFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apiguardian.api.API;

/**
 * Results of {@code vllm bench serve --save-result} as a reference: one JSON object per run, a JSON Lines
 * file ({@code --append-result}), a JSON array ({@code vllm bench sweep}'s {@code summary.json}) or a folder
 * of such files. Each run is a level by its load: {@code --max-concurrency} with an infinite rate is a
 * closed loop, a finite {@code --request-rate} an open one. Per-request arrays ({@code --save-detailed};
 * {@code latencies} is always kept) give samples to bootstrap; otherwise the summary's {@code median_*_ms},
 * {@code pNN_*_ms} and {@code output_throughput} are point values.
 */
@API(status = INTERNAL)
public final class VllmResults {

  private static final Pattern PERCENTILE_KEY = Pattern.compile("p(\\d+(?:\\.\\d+)?)_(ttft|tpot|itl|e2el)_ms");
  private static final Map<String, Metric> METRICS = Map.of("ttft", Metric.TTFT, "tpot", Metric.TPOT, "itl", Metric.ITL,
      "e2el", Metric.E2E_LATENCY);

  private VllmResults() {}

  /** @throws IllegalArgumentException naming the file and what it lacks */
  public static Reference read(Path path) {
    if (!Files.exists(path)) throw new IllegalArgumentException("the vLLM results " + path + " do not exist; check llmbench.baseline.vllm");
    List<Path> files;
    try (Stream<Path> listing = Files.isDirectory(path) ? Files.list(path) : Stream.of(path)) {
      // A file is read whatever its name; a folder's files only if they are results (not PyTorch-format copies).
      files = listing.filter(p -> p.equals(path) || p.toString().endsWith(".json") && !p.toString().endsWith(".pytorch.json"))
          .sorted().toList();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the vLLM results " + path + ": " + e.getMessage(), e);
    }
    Map<String, Reference.Level> byLoad = new LinkedHashMap<>();
    for (Path file : files) {
      for (JsonNode run : VllmResultFiles.objects(file)) {
        String key = loadKey(run, file);
        Reference.Level level = new Reference.Level(sample(run), file.getFileName().toString());
        byLoad.merge(key, level, (a, b) -> a); // several runs of one load: the first (sorted by name) stands for it
      }
    }
    if (byLoad.isEmpty()) throw new IllegalArgumentException("no vLLM bench serve result in " + path);
    return new Reference("vLLM results " + path, Map.of(), byLoad);
  }

  /** {@code C=8} for {@code --max-concurrency 8} at an infinite rate; {@code rate=4} or {@code rate=4,max=16} otherwise. */
  static String loadKey(JsonNode run, Path file) {
    return Reference.loadKey(VllmResultFiles.load(run, file).orElseThrow(() -> new IllegalArgumentException("the vLLM result "
        + file + " has neither a finite request_rate nor a max_concurrency: it sent every prompt at once, which no LLMBench "
        + "level does")));
  }

  static LevelSample sample(JsonNode run) {
    double[] latencies = BaselineFile.doubles(run.path("latencies"));
    double[] outputs = BaselineFile.doubles(run.path("output_lens"));
    double[] ttfts = BaselineFile.doubles(run.path("ttfts"));
    JsonNode errors = run.path("errors");
    int n = latencies.length;
    List<Integer> ok = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean failed = errors.isArray() && errors.size() == n ? !errors.get(i).asText().isEmpty() : latencies[i] <= 0;
      if (!failed) ok.add(i);
    }
    boolean tokens = outputs.length == n && n > 0;
    boolean firstTokens = ttfts.length == n && n > 0;
    Map<Metric, double[]> samples = new LinkedHashMap<>();
    samples.put(Metric.E2E_LATENCY, ok.stream().mapToDouble(i -> latencies[i]).toArray());
    JsonNode itls = run.path("itls");
    if (itls.isArray() && itls.size() == n) {
      samples.put(Metric.ITL, ok.stream().flatMap(i -> StreamSupport.stream(itls.get(i).spliterator(), false))
          .mapToDouble(JsonNode::asDouble).toArray());
    }
    if (firstTokens) {
      samples.put(Metric.TTFT, ok.stream().mapToDouble(i -> ttfts[i]).toArray());
      if (tokens) {
        samples.put(Metric.TPOT, ok.stream().filter(i -> outputs[i] > 1)
            .mapToDouble(i -> (latencies[i] - ttfts[i]) / (outputs[i] - 1)).toArray());
      }
    }
    Map<String, Double> points = new LinkedHashMap<>();
    if (run.path("output_throughput").isNumber()) points.put("output_throughput", run.path("output_throughput").asDouble());
    run.fields().forEachRemaining(e -> {
      if (!e.getValue().isNumber()) return;
      for (Map.Entry<String, Metric> m : METRICS.entrySet()) {
        if (e.getKey().equals("median_" + m.getKey() + "_ms")) points.put(m.getValue().key() + "_p50", e.getValue().asDouble());
      }
      Matcher pm = PERCENTILE_KEY.matcher(e.getKey());
      if (pm.matches()) {
        points.put(METRICS.get(pm.group(2)).key() + "_p" + Formats.number(Double.parseDouble(pm.group(1))), e.getValue().asDouble());
      }
    });
    return new LevelSample(tokens ? ok.stream().mapToDouble(i -> outputs[i]).toArray() : new double[0],
        tokens ? ok.stream().mapToDouble(i -> latencies[i]).toArray() : new double[0], run.path("duration").asDouble(), samples,
        points);
  }
}
