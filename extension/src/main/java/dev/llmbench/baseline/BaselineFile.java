package dev.llmbench.baseline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.Metric;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.compare.ComparisonSide;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep saved as a baseline: per level, the figures people read in a diff (vLLM's names) and the
 * per-request samples a later run's bootstrap needs. Saving part of a sweep keeps the file's other levels.
 */
final class BaselineFile {

  static final String FORMAT = "llmbench-baseline/1";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Map<Metric, String> SAMPLE_FIELDS = Map.of(Metric.TTFT, "ttft_s", Metric.TPOT, "tpot_s",
      Metric.ITL, "itl_s", Metric.E2E_LATENCY, "e2el_s");
  /** ITL has a sample per token: an even subset this large keeps its percentiles and the file small. */
  static final int MAX_SAMPLES = 2000;

  private BaselineFile() {}

  /** Writes the levels, keeping those of an existing file that this run did not measure. */
  public static void write(Path file, String sweep, List<? extends SweepLevelResult> levels) {
    Map<String, JsonNode> byLabel = new LinkedHashMap<>();
    if (Files.isRegularFile(file)) {
      try {
        JSON.readTree(file.toFile()).path("levels").forEach(l -> byLabel.put(l.path("label").asText(), l));
      } catch (IOException e) {
        // An unreadable old baseline is replaced whole.
      }
    }
    levels.forEach(l -> byLabel.put(l.label(), level(l)));
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("sweep", sweep);
    root.put("saved_at", Instant.now().toString());
    ArrayNode out = root.putArray("levels");
    byLabel.values().forEach(out::add);
    try {
      if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, JSON.writeValueAsString(root) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("could not save the baseline " + file + "; check that its folder is writable, or "
          + "set llmbench.baseline.dir", e);
    }
  }

  private static ObjectNode level(SweepLevelResult l) {
    ComparisonSide s = ComparisonSide.of(l);
    ObjectNode n = JSON.createObjectNode();
    n.put("label", l.label());
    n.put("load", Reference.loadKey(l.load()));
    l.endpoint().deployment().ifPresent(d -> n.put("deployment", d));
    n.put("endpoint", l.endpoint().reportName());
    n.put("model", l.endpoint().model());
    n.put("max_tokens", l.maxTokens());
    n.put("input_tokens", l.inputTokens());
    n.put("completed", l.succeeded());
    n.put("failed", l.failed());
    n.put("duration", s.windowSeconds());
    n.put("output_throughput", round(l.outputThroughput().perSecond()));
    l.ttft().percentile(50).ifPresent(d -> n.put("median_ttft_ms", round(d.toNanos() / 1e6)));
    l.tpot().percentile(50).ifPresent(d -> n.put("median_tpot_ms", round(d.toNanos() / 1e6)));
    l.itl().percentile(50).ifPresent(d -> n.put("median_itl_ms", round(d.toNanos() / 1e6)));
    l.e2eLatency().percentile(50).ifPresent(d -> n.put("median_e2el_ms", round(d.toNanos() / 1e6)));
    array(n, "output_tokens", s.outputTokens());
    array(n, "latency_s", s.e2eSeconds());
    SAMPLE_FIELDS.forEach((m, field) -> array(n, field, s.latencySeconds().get(m)));
    return n;
  }

  private static void array(ObjectNode n, String field, double[] values) {
    ArrayNode a = n.putArray(field);
    if (values.length <= MAX_SAMPLES) {
      for (double v : values) a.add(round(v));
    } else {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      // Evenly spaced order statistics: the same distribution, fewer points.
      for (int i = 0; i < MAX_SAMPLES; i++) a.add(round(sorted[(int) ((i + 0.5) * sorted.length / MAX_SAMPLES)]));
    }
  }

  /** Microseconds are enough for every figure compared, and keep the file readable in a diff. */
  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }

  /** @throws IllegalArgumentException saying what is wrong with the file and what to do */
  public static Reference read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the baseline " + file + " is not readable JSON (" + e.getOriginalMessage()
          + "); delete it, or save a new one with -Dllmbench.baseline.save=true", e);
    } catch (IOException e) {
      throw new IllegalArgumentException("the baseline " + file + " cannot be read (" + e.getMessage()
          + "); delete it, or save a new one with -Dllmbench.baseline.save=true", e);
    }
    if (!FORMAT.equals(root.path("format").asText())) {
      throw new IllegalArgumentException("the baseline " + file + " is not an LLMBench baseline (no \"format\": \"" + FORMAT
          + "\"); for a vllm bench serve result use llmbench.baseline.vllm");
    }
    Map<String, Reference.Entry> levels = new LinkedHashMap<>();
    for (JsonNode l : root.path("levels")) {
      Map<Metric, double[]> latencies = new LinkedHashMap<>();
      SAMPLE_FIELDS.forEach((m, field) -> latencies.put(m, doubles(l.path(field))));
      ComparisonSide sample;
      try {
        sample = new ComparisonSide(doubles(l.path("output_tokens")), doubles(l.path("latency_s")), l.path("duration").asDouble(),
            latencies, Map.of());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the baseline " + file + ", level " + l.path("label") + ": " + e.getMessage()
            + "; save a new one with -Dllmbench.baseline.save=true", e);
      }
      levels.put(l.path("label").asText(), new Reference.Entry(sample, ""));
    }
    return new Reference(file.toString(), levels, Map.of());
  }

  static double[] doubles(JsonNode array) {
    double[] v = new double[array.size()];
    for (int i = 0; i < v.length; i++) v[i] = array.get(i).asDouble();
    return v;
  }
}
