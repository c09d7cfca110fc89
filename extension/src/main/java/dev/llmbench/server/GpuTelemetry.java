package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the GPUs did during one level, from the Prometheus endpoints of GPU exporters beside the server (NVIDIA's
 * DCGM exporter first: {@code llmbench.telemetry.urls}), per GPU and summed. Shares are fractions (0.99 is 99%),
 * memory in MiB, power in watts, energy in joules; a figure the exporter did not report is NaN.
 * {@code docs/metrics.md} gives every formula.
 *
 * @param gpus         every GPU seen, in the order of the endpoints and then of their {@code gpu} index
 * @param outputTokens the level's output tokens, which {@link #joulesPerOutputToken()} divides by
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record GpuTelemetry(List<Gpu> gpus, long outputTokens) {

  /**
   * Copies the GPUs, so that the record cannot change.
   *
   * @param gpus         every GPU seen
   * @param outputTokens the level's output tokens
   */
  public GpuTelemetry {
    gpus = List.copyOf(gpus);
  }

  /** Where a GPU's energy comes from. */
  public enum EnergySource {
    /** {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} (mJ since boot): its value after the level minus before. */
    COUNTER,
    /** {@code DCGM_FI_DEV_POWER_USAGE} (W) integrated over the level's samples by the trapezoidal rule. */
    INTEGRATED_POWER,
    /** Neither: fewer than two samples of either. */
    NONE
  }

  /**
   * One GPU during one level.
   *
   * @param endpoint          the exporter's URL
   * @param index             its {@code gpu} label (the device index on its host)
   * @param uuid              its {@code UUID} label, or empty
   * @param modelName         its {@code modelName} label, e.g. {@code NVIDIA H100 80GB HBM3}, or empty
   * @param hostname          its {@code Hostname} label, or empty
   * @param utilisation       mean of {@code DCGM_FI_DEV_GPU_UTIL} over the samples taken during the level, as a fraction
   * @param peakUtilisation   the largest of those samples, as a fraction
   * @param memoryUsedMib     the largest {@code DCGM_FI_DEV_FB_USED} sampled during the level (MiB)
   * @param powerWatts        mean of {@code DCGM_FI_DEV_POWER_USAGE} over the samples taken during the level (W)
   * @param energyJoules      energy the GPU used over the level (J), from {@code energySource}
   * @param energySource      where the energy comes from
   * @param samples           scrapes taken during the level (the one before it not counted)
   * @param span              from the scrape before the level to the last one after it: the energy's window
   */
  public record Gpu(String endpoint, String index, String uuid, String modelName, String hostname, double utilisation,
      double peakUtilisation, double memoryUsedMib, double powerWatts, double energyJoules, EnergySource energySource,
      int samples, Duration span) {

    /** {@return {@code gpu 0 (NVIDIA H100 80GB HBM3, GPU-5fb4...) at host-1}, for tables and messages} */
    public String name() {
      String what = modelName.isEmpty() ? uuid : uuid.isEmpty() ? modelName : modelName + ", " + uuid;
      return "gpu " + index + (what.isEmpty() ? "" : " (" + what + ")") + (hostname.isEmpty() ? "" : " at " + hostname);
    }
  }

  /** {@return the mean of the GPUs' mean utilisations (NaN when none reported it)} */
  public double utilisation() {
    return gpus.stream().mapToDouble(Gpu::utilisation).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
  }

  /** {@return the busiest GPU's mean utilisation (NaN when none reported it)} */
  public double busiestUtilisation() {
    return gpus.stream().mapToDouble(Gpu::utilisation).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
  }

  /** {@return the sum of the GPUs' peak memory used (MiB)} */
  public double memoryUsedMib() {
    return sum(Gpu::memoryUsedMib);
  }

  /** {@return the sum of the GPUs' mean power (W)} */
  public double powerWatts() {
    return sum(Gpu::powerWatts);
  }

  /** {@return the sum of the GPUs' energy over the level (J); NaN when any GPU's energy is unknown} */
  public double energyJoules() {
    return gpus.isEmpty() || gpus.stream().anyMatch(g -> Double.isNaN(g.energyJoules())) ? Double.NaN
        : gpus.stream().mapToDouble(Gpu::energyJoules).sum();
  }

  /** {@return energy over output tokens (J/token): empty without output tokens or a known energy} */
  public Optional<Double> joulesPerOutputToken() {
    double e = energyJoules();
    return outputTokens == 0 || Double.isNaN(e) ? Optional.empty() : Optional.of(e / outputTokens);
  }

  private double sum(java.util.function.ToDoubleFunction<Gpu> figure) {
    double[] known = gpus.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).toArray();
    return known.length == 0 ? Double.NaN : java.util.Arrays.stream(known).sum();
  }
}
