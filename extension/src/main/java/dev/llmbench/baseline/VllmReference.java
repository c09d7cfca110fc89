package dev.llmbench.baseline;

import dev.llmbench.Metric;
import dev.llmbench.internal.compare.ComparisonSide;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.vllm.VllmResultFiles;
import dev.llmbench.internal.vllm.VllmRun;
import dev.llmbench.internal.vllm.VllmRun.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Results of {@code vllm bench serve --save-result} as a reference: one JSON object per run, a JSON Lines
 * file ({@code --append-result}), a JSON array ({@code vllm bench sweep}'s {@code summary.json}) or a folder
 * of such files. Each run is a level by its load: {@code --max-concurrency} with an infinite rate is a
 * closed loop, a finite {@code --request-rate} an open one. Per-request arrays ({@code --save-detailed};
 * {@code latencies} is always kept) give samples to bootstrap; otherwise the summary's {@code median_*_ms},
 * {@code pNN_*_ms} and {@code output_throughput} are point values. The files are read, and failed requests
 * told apart, by {@link VllmResultFiles}; this class only turns its runs into reference levels.
 */
final class VllmReference {

  private VllmReference() {}

  /** @throws IllegalArgumentException naming the file and what it lacks */
  public static Reference read(Path path) {
    if (!Files.exists(path)) throw new IllegalArgumentException("the vLLM results " + path + " do not exist; check llmbench.baseline.vllm");
    Map<String, Reference.Entry> byLoad = new LinkedHashMap<>();
    for (Path file : VllmResultFiles.files(path)) {
      for (VllmRun run : VllmResultFiles.runs(file)) {
        String key = loadKey(run);
        Reference.Entry level = new Reference.Entry(sample(run), run.file());
        byLoad.merge(key, level, (a, b) -> a); // several runs of one load: the first (sorted by name) stands for it
      }
    }
    if (byLoad.isEmpty()) throw new IllegalArgumentException("no vLLM bench serve result in " + path);
    return new Reference("vLLM results " + path, Map.of(), byLoad);
  }

  /** {@code C=8} for {@code --max-concurrency 8} at an infinite rate; {@code rate=4} or {@code rate=4,max=16} otherwise. */
  static String loadKey(VllmRun run) {
    return Reference.loadKey(run.load().orElseThrow(() -> new IllegalArgumentException("the vLLM result "
        + run.file() + " has neither a finite request_rate nor a max_concurrency: it sent every prompt at once, which no LLMBench "
        + "level does")));
  }

  static ComparisonSide sample(VllmRun run) {
    List<VllmRun.Request> ok = run.succeeded();
    boolean tokens = run.has(Array.OUTPUT_LENS);
    Map<Metric, double[]> samples = new LinkedHashMap<>();
    samples.put(Metric.E2E_LATENCY, ok.stream().mapToDouble(VllmRun.Request::latencySeconds).toArray());
    if (run.has(Array.ITLS)) {
      samples.put(Metric.ITL, ok.stream().flatMapToDouble(r -> Arrays.stream(r.itlSeconds())).toArray());
    }
    if (run.has(Array.TTFTS)) {
      samples.put(Metric.TTFT, ok.stream().mapToDouble(VllmRun.Request::ttftSeconds).toArray());
      if (tokens) {
        // vLLM's TPOT: the time after the first token over the tokens after it, for requests of two or more.
        samples.put(Metric.TPOT, ok.stream().filter(r -> r.outputTokens() > 1)
            .mapToDouble(r -> (r.latencySeconds() - r.ttftSeconds()) / (r.outputTokens() - 1)).toArray());
      }
    }
    Map<String, Double> points = new LinkedHashMap<>();
    run.value(Metric.OUTPUT_THROUGHPUT).ifPresent(v -> points.put(Metric.OUTPUT_THROUGHPUT.key(), v));
    run.statistics().forEach((metric, stats) -> stats.forEach((stat, ms) -> {
      if (stat.equals("median")) points.put(metric.key() + "_p50", ms);
      else if (stat.startsWith("p")) points.put(metric.key() + "_p" + Formats.number(Double.parseDouble(stat.substring(1))), ms);
    }));
    return new ComparisonSide(tokens ? ok.stream().mapToDouble(VllmRun.Request::outputTokens).toArray() : new double[0],
        tokens ? ok.stream().mapToDouble(VllmRun.Request::latencySeconds).toArray() : new double[0], run.durationSeconds(), samples,
        points);
  }
}
