package dev.llmbench.internal.server;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/** The Prometheus text exposition format, as far as benchmarks need it: series values and family types. */
@API(status = INTERNAL)
public record PrometheusText(Map<String, Double> series, Map<String, String> types) {

  /** Parses {@code /metrics} text; lines it cannot read are skipped, never fatal. */
  public static PrometheusText parse(String text) {
    Map<String, Double> series = new LinkedHashMap<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty()) continue;
      if (line.startsWith("#")) {
        String[] parts = line.split("\\s+");
        if (parts.length >= 4 && parts[1].equals("TYPE")) types.put(parts[2], parts[3]);
        continue;
      }
      int end = line.indexOf('}') >= 0 ? line.indexOf('}') + 1 : line.indexOf(' ');
      if (end <= 0 || end >= line.length()) continue;
      String name = line.substring(0, end).strip();
      String[] rest = line.substring(end).strip().split("\\s+");
      try {
        series.put(name, Double.parseDouble(rest[0]));
      } catch (NumberFormatException e) {
        // Not a sample line we understand; skip it.
      }
    }
    return new PrometheusText(series, types);
  }

  public String typeOf(String series) {
    int brace = series.indexOf('{');
    String base = brace < 0 ? series : series.substring(0, brace);
    String type = types.get(base);
    if (type == null && base.endsWith("_total")) type = types.get(base.substring(0, base.length() - 6));
    return type == null ? "untyped" : type;
  }

  /** {@code vllm}, {@code llamacpp}, {@code sglang}, or {@code unknown}, from the metric prefixes. */
  public String family() {
    for (String name : series.keySet()) {
      if (name.startsWith("vllm:")) return "vllm";
      if (name.startsWith("llamacpp:")) return "llamacpp";
      if (name.startsWith("sglang:")) return "sglang";
    }
    return "unknown";
  }
}
