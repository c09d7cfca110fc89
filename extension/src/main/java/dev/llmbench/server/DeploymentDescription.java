package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a suite said about its deployment with {@link DeploymentFacts}; empty strings and zeros mean "not said".
 *
 * @see DeploymentFacts for each field
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record DeploymentDescription(String gpus, DeploymentFacts.Interconnect interconnect, int tensorParallel,
    int pipelineParallel, int dataParallel, int expertParallel, DeploymentFacts.Attention attention, String quantisation,
    String engine, String notes, int gpuCount, double gpuHourPrice) {

  /** Nothing said about the deployment. */
  public static final DeploymentDescription NONE = new DeploymentDescription("", DeploymentFacts.Interconnect.UNSPECIFIED,
      0, 0, 0, 0, DeploymentFacts.Attention.UNSPECIFIED, "", "", "", 0, 0);

  /**
   * Rejects a missing component; an unsaid one is empty, 0 or {@code UNSPECIFIED}.
   *
   * @param gpus the accelerators, e.g. {@code 8x H20 96GB}; empty when not said
   * @param interconnect how the accelerators of one replica are connected
   * @param tensorParallel tensor-parallel size; 0 when not said
   * @param pipelineParallel pipeline-parallel size; 0 when not said
   * @param dataParallel data-parallel size; 0 when not said
   * @param expertParallel expert-parallel size; 0 when not said
   * @param attention the model's attention
   * @param quantisation weight (and KV-cache) quantisation; empty when not said
   * @param engine the serving engine and its notable flags; empty when not said
   * @param notes anything else a reader should know; empty when none
   * @param gpuCount GPUs the deployment holds; 0 when not said
   * @param gpuHourPrice dollars per GPU-hour; 0 when not said
   */
  public DeploymentDescription {
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(interconnect, "interconnect");
    Objects.requireNonNull(attention, "attention");
    Objects.requireNonNull(quantisation, "quantisation");
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(notes, "notes");
    for (int size : new int[] {tensorParallel, pipelineParallel, dataParallel, expertParallel}) {
      if (size < 0) throw new IllegalArgumentException("a parallel size is 0 (not said) or positive, was " + size);
    }
    if (gpuCount < 0) throw new IllegalArgumentException("a GPU count is 0 (not said) or positive, was " + gpuCount);
    if (!(gpuHourPrice >= 0) || Double.isInfinite(gpuHourPrice)) {
      throw new IllegalArgumentException("a price per GPU-hour is 0 (not said) or a positive number of dollars, was "
          + gpuHourPrice);
    }
  }

  /**
   * Without a GPU count or price.
   *
   * @param gpus the accelerators; empty when not said
   * @param interconnect how the accelerators of one replica are connected
   * @param tensorParallel tensor-parallel size; 0 when not said
   * @param pipelineParallel pipeline-parallel size; 0 when not said
   * @param dataParallel data-parallel size; 0 when not said
   * @param expertParallel expert-parallel size; 0 when not said
   * @param attention the model's attention
   * @param quantisation weight (and KV-cache) quantisation; empty when not said
   * @param engine the serving engine and its notable flags; empty when not said
   * @param notes anything else a reader should know; empty when none
   */
  public DeploymentDescription(String gpus, DeploymentFacts.Interconnect interconnect, int tensorParallel,
      int pipelineParallel, int dataParallel, int expertParallel, DeploymentFacts.Attention attention, String quantisation,
      String engine, String notes) {
    this(gpus, interconnect, tensorParallel, pipelineParallel, dataParallel, expertParallel, attention, quantisation, engine,
        notes, 0, 0);
  }

  /**
   * {@return these facts with a GPU count and a price per GPU-hour (0 keeps the one said here)}
   *
   * @param count GPUs the deployment holds; 0 keeps this one's
   * @param price dollars per GPU-hour; 0 keeps this one's
   */
  public DeploymentDescription withCost(int count, double price) {
    return new DeploymentDescription(gpus, interconnect, tensorParallel, pipelineParallel, dataParallel, expertParallel,
        attention, quantisation, engine, notes, count > 0 ? count : gpuCount, price > 0 ? price : gpuHourPrice);
  }

  /**
   * {@return the facts an annotation states}
   *
   * @param d the annotation
   */
  public static DeploymentDescription of(DeploymentFacts d) {
    return new DeploymentDescription(d.gpus().strip(), d.interconnect(), d.tensorParallel(), d.pipelineParallel(),
        d.dataParallel(), d.expertParallel(), d.attention(), d.quantisation().strip(), d.engine().strip(), d.notes().strip(),
        d.gpuCount(), d.gpuHourPrice());
  }

  /** {@return whether nothing was said} */
  public boolean isEmpty() {
    return equals(NONE);
  }

  /** {@return one line for reports: {@code 8x H20 96GB · PCIe · TP=8 · MLA · FP8 · vLLM 0.11}} */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (!gpus.isEmpty()) parts.add(gpus);
    if (interconnect != DeploymentFacts.Interconnect.UNSPECIFIED) parts.add(interconnectName());
    if (tensorParallel > 0) parts.add("TP=" + tensorParallel);
    if (pipelineParallel > 0) parts.add("PP=" + pipelineParallel);
    if (dataParallel > 0) parts.add("DP=" + dataParallel);
    if (expertParallel > 0) parts.add("EP=" + expertParallel);
    if (attention != DeploymentFacts.Attention.UNSPECIFIED) parts.add(attention.name());
    if (!quantisation.isEmpty()) parts.add(quantisation);
    if (!engine.isEmpty()) parts.add(engine);
    if (!notes.isEmpty()) parts.add(notes);
    if (gpuCount > 0) parts.add(gpuCount + (gpuCount == 1 ? " GPU" : " GPUs"));
    if (gpuHourPrice > 0) parts.add(String.format(java.util.Locale.ROOT, "$%.2f/GPU-h", gpuHourPrice));
    return parts.isEmpty() ? "not described" : String.join(" · ", parts);
  }

  /** {@return {@code PCIe}, {@code NVLink}, ..} as people write them. */
  public String interconnectName() {
    return switch (interconnect) {
      case PCIE -> "PCIe";
      case NVLINK -> "NVLink";
      case INFINIBAND -> "InfiniBand";
      case ETHERNET -> "Ethernet";
      case SINGLE_DEVICE -> "single device";
      case UNSPECIFIED -> "interconnect not said";
    };
  }
}
