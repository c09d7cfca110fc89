package dev.llmbench.telemetry;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.report.ResultJson;
import dev.llmbench.server.GpuTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** A level's GPU figures as the table, the JSON and the HTML show them; a figure the exporter did not give is left out. */
final class GpuText {

  private GpuText() {}

  /** {@code 2 GPUs (NVIDIA H100 80GB HBM3) | util 99.0% (busiest 99.0%) | memory 142000 MiB | power 1400.0 W | ...}. */
  public static String summary(GpuTelemetry t) {
    List<String> parts = new ArrayList<>();
    String models = t.gpus().stream().map(GpuTelemetry.Gpu::modelName).filter(m -> !m.isEmpty()).distinct()
        .collect(Collectors.joining(", "));
    parts.add(t.gpus().size() + (t.gpus().size() == 1 ? " GPU" : " GPUs") + (models.isEmpty() ? "" : " (" + models + ")"));
    if (!Double.isNaN(t.utilisation())) {
      parts.add("util " + Formats.percent(t.utilisation()) + (t.gpus().size() > 1 ? " (busiest " + Formats.percent(
          t.busiestUtilisation()) + ")" : ""));
    }
    if (!Double.isNaN(t.memoryUsedMib())) parts.add(String.format(Locale.ROOT, "memory %.0f MiB", t.memoryUsedMib()));
    if (!Double.isNaN(t.powerWatts())) parts.add(String.format(Locale.ROOT, "power %.1f W", t.powerWatts()));
    if (!Double.isNaN(t.energyJoules())) {
      String how = t.gpus().stream().map(g -> g.energySource().name().toLowerCase(Locale.ROOT).replace('_', ' ')).distinct()
          .collect(Collectors.joining(", "));
      parts.add(String.format(Locale.ROOT, "energy %.3f J (%s)", t.energyJoules(), how));
    }
    t.joulesPerOutputToken().ifPresent(j -> parts.add(String.format(Locale.ROOT, "%.4f J/token", j)));
    return String.join(" | ", parts);
  }

  /** {@code gpu 0 (NVIDIA H100, GPU-...): util 99.0% (peak 100.0%), memory 71000 MiB, power 700.0 W, energy 2107.0 J (counter)}. */
  public static String one(GpuTelemetry.Gpu g) {
    List<String> parts = new ArrayList<>();
    if (!Double.isNaN(g.utilisation())) {
      parts.add("util " + Formats.percent(g.utilisation()) + " (peak " + Formats.percent(g.peakUtilisation()) + ")");
    }
    if (!Double.isNaN(g.memoryUsedMib())) parts.add(String.format(Locale.ROOT, "memory %.0f MiB", g.memoryUsedMib()));
    if (!Double.isNaN(g.powerWatts())) parts.add(String.format(Locale.ROOT, "power %.1f W", g.powerWatts()));
    if (!Double.isNaN(g.energyJoules())) {
      parts.add(String.format(Locale.ROOT, "energy %.3f J (%s)", g.energyJoules(),
          g.energySource().name().toLowerCase(Locale.ROOT).replace('_', ' ')));
    }
    parts.add(g.samples() + " samples over " + Formats.duration(g.span()));
    return g.name() + ": " + String.join(", ", parts);
  }

  /**
   * {@code llmbench.gpu_telemetry}: AIPerf's names for the figures (gpu_utilization, gpu_memory_used, gpu_power_usage,
   * energy_consumption) with their units in the name; utilisation a fraction, as every share in this file.
   */
  public static ObjectNode json(GpuTelemetry t) {
    ObjectNode n = ResultJson.MAPPER.createObjectNode();
    put(n, "gpu_utilization", t.utilisation());
    put(n, "gpu_utilization_busiest", t.busiestUtilisation());
    put(n, "gpu_memory_used_mib", t.memoryUsedMib());
    put(n, "gpu_power_usage_w", t.powerWatts());
    put(n, "energy_consumption_j", t.energyJoules());
    t.joulesPerOutputToken().ifPresent(j -> n.put("energy_per_output_token_j", j));
    n.put("output_tokens", t.outputTokens());
    ArrayNode gpus = n.putArray("gpus");
    for (GpuTelemetry.Gpu g : t.gpus()) {
      ObjectNode o = gpus.addObject();
      o.put("endpoint", g.endpoint());
      o.put("gpu", g.index());
      if (!g.uuid().isEmpty()) o.put("uuid", g.uuid());
      if (!g.modelName().isEmpty()) o.put("model_name", g.modelName());
      if (!g.hostname().isEmpty()) o.put("hostname", g.hostname());
      put(o, "gpu_utilization", g.utilisation());
      put(o, "gpu_utilization_peak", g.peakUtilisation());
      put(o, "gpu_memory_used_mib", g.memoryUsedMib());
      put(o, "gpu_power_usage_w", g.powerWatts());
      put(o, "energy_consumption_j", g.energyJoules());
      o.put("energy_source", g.energySource().name());
      o.put("samples", g.samples());
      o.put("span_s", g.span().toNanos() / 1e9);
    }
    return n;
  }

  private static void put(ObjectNode n, String name, double v) {
    if (!Double.isNaN(v)) n.put(name, v);
  }
}
