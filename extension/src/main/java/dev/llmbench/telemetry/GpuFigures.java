package dev.llmbench.telemetry;

import dev.llmbench.server.GpuTelemetry;
import dev.llmbench.server.GpuTelemetry.EnergySource;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-GPU figures of one level from a DCGM exporter's samples: the first sample of each endpoint is the one taken
 * before the level, the rest were taken during it and just after it. Formulas, as docs/metrics.md states them:
 * <ul>
 *   <li>utilisation: mean (and max) of {@code DCGM_FI_DEV_GPU_UTIL} / 100 over the samples after the first;</li>
 *   <li>memory used: max of {@code DCGM_FI_DEV_FB_USED} (MiB) over the same samples;</li>
 *   <li>power: mean of {@code DCGM_FI_DEV_POWER_USAGE} (W) over the same samples;</li>
 *   <li>energy: ({@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} at the last sample − at the first) / 1000 J, the
 *   counter being in mJ; without it, power integrated by the trapezoidal rule over all samples, first included:
 *   Σ (P_i + P_i+1) / 2 × (t_i+1 − t_i).</li>
 * </ul>
 */
final class GpuFigures {

  static final String UTIL = "DCGM_FI_DEV_GPU_UTIL";
  static final String FB_USED = "DCGM_FI_DEV_FB_USED";
  static final String POWER = "DCGM_FI_DEV_POWER_USAGE";
  static final String ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  private static final List<String> FIELDS = List.of(UTIL, FB_USED, POWER, ENERGY);

  private GpuFigures() {}

  /** Who a series is about: its endpoint and GPU, and what its labels say of it. */
  private record GpuKey(URI endpoint, String hostname, String index, String uuid, String modelName) {}

  /**
   * @param samples  each endpoint's successful scrapes, in the order taken
   * @param failures each endpoint's failed scrapes, as words
   */
  public static TelemetryReading read(Map<URI, List<TelemetrySample>> samples, Map<URI, List<String>> failures,
      long outputTokens) {
    List<GpuTelemetry.Gpu> gpus = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (Map.Entry<URI, List<TelemetrySample>> e : samples.entrySet()) {
      URI url = e.getKey();
      List<TelemetrySample> got = e.getValue();
      List<String> failed = failures.getOrDefault(url, List.of());
      if (got.isEmpty()) {
        warnings.add("GPU telemetry: " + url + " did not answer (" + (failed.isEmpty() ? "no scrape" : failed.get(0))
            + "), so this level has no GPU figures from it; is the exporter running, and is this its /metrics URL?");
        continue;
      }
      if (!failed.isEmpty()) {
        warnings.add("GPU telemetry: " + failed.size() + " of " + (failed.size() + got.size()) + " scrapes of " + url
            + " failed (first: " + failed.get(0) + "); its figures rest on the " + got.size() + " that answered");
      }
      List<GpuTelemetry.Gpu> found = endpoint(url, got);
      if (found.isEmpty()) {
        warnings.add("GPU telemetry: " + url + " answered but gave none of " + String.join(", ", FIELDS)
            + ": is it a DCGM exporter?");
      } else if (got.size() < 2) {
        warnings.add("GPU telemetry: " + url + " answered only once, so its GPUs have no figures during the level");
      }
      gpus.addAll(found);
    }
    return new TelemetryReading(gpus.isEmpty() ? Optional.empty() : Optional.of(new GpuTelemetry(gpus, outputTokens)),
        warnings);
  }

  private static List<GpuTelemetry.Gpu> endpoint(URI url, List<TelemetrySample> got) {
    // Each GPU's value of each field in each sample; a GPU is named by its labels, whatever else (pod, container) varies.
    Map<GpuKey, List<Map<String, Double>>> byGpu = new LinkedHashMap<>();
    for (int i = 0; i < got.size(); i++) {
      for (Map.Entry<String, Double> s : got.get(i).text().series().entrySet()) {
        String field = Labels.name(s.getKey());
        if (!FIELDS.contains(field)) continue;
        Map<String, String> l = Labels.of(s.getKey());
        GpuKey key = new GpuKey(url, l.getOrDefault("Hostname", ""), l.getOrDefault("gpu", ""), l.getOrDefault("UUID", ""),
            l.getOrDefault("modelName", ""));
        List<Map<String, Double>> perSample = byGpu.computeIfAbsent(key, k -> {
          List<Map<String, Double>> list = new ArrayList<>();
          for (int j = 0; j < got.size(); j++) list.add(new LinkedHashMap<>());
          return list;
        });
        perSample.get(i).put(field, s.getValue());
      }
    }
    List<GpuTelemetry.Gpu> gpus = new ArrayList<>();
    byGpu.entrySet().stream().sorted(Comparator.comparing((Map.Entry<GpuKey, ?> en) -> en.getKey().hostname())
        .thenComparing(en -> index(en.getKey().index()))).forEach(en -> gpus.add(gpu(en.getKey(), en.getValue(), got)));
    return gpus;
  }

  private static int index(String gpu) {
    try {
      return Integer.parseInt(gpu);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  private static GpuTelemetry.Gpu gpu(GpuKey key, List<Map<String, Double>> values, List<TelemetrySample> got) {
    List<Map<String, Double>> during = values.subList(1, values.size());
    double util = mean(during, UTIL) / 100;
    double peakUtil = max(during, UTIL) / 100;
    double memory = max(during, FB_USED);
    double power = mean(during, POWER);
    double energy = Double.NaN;
    EnergySource source = EnergySource.NONE;
    Double first = values.get(0).get(ENERGY);
    Double last = values.get(values.size() - 1).get(ENERGY);
    if (values.size() >= 2 && first != null && last != null) {
      energy = (last - first) / 1000; // mJ to J
      source = EnergySource.COUNTER;
    } else {
      double integral = 0;
      int intervals = 0;
      for (int i = 0; i + 1 < values.size(); i++) {
        Double a = values.get(i).get(POWER);
        Double b = values.get(i + 1).get(POWER);
        if (a == null || b == null) continue;
        integral += (a + b) / 2 * (got.get(i + 1).nanos() - got.get(i).nanos()) / 1e9;
        intervals++;
      }
      if (intervals > 0) {
        energy = integral;
        source = EnergySource.INTEGRATED_POWER;
      }
    }
    Duration span = Duration.ofNanos(got.get(got.size() - 1).nanos() - got.get(0).nanos());
    return new GpuTelemetry.Gpu(key.endpoint().toString(), key.index(), key.uuid(), key.modelName(), key.hostname(), util,
        peakUtil, memory, power, energy, source, during.size(), span);
  }

  private static double mean(List<Map<String, Double>> samples, String field) {
    return samples.stream().filter(m -> m.containsKey(field)).mapToDouble(m -> m.get(field)).average().orElse(Double.NaN);
  }

  private static double max(List<Map<String, Double>> samples, String field) {
    return samples.stream().filter(m -> m.containsKey(field)).mapToDouble(m -> m.get(field)).max().orElse(Double.NaN);
  }

}
