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
    String engine, String notes) {

  /** Nothing said about the deployment. */
  public static final DeploymentDescription NONE = new DeploymentDescription("", DeploymentFacts.Interconnect.UNSPECIFIED,
      0, 0, 0, 0, DeploymentFacts.Attention.UNSPECIFIED, "", "", "");

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
  }

  /**
   * {@return the facts an annotation states}
   *
   * @param d the annotation
   */
  public static DeploymentDescription of(DeploymentFacts d) {
    return new DeploymentDescription(d.gpus().strip(), d.interconnect(), d.tensorParallel(), d.pipelineParallel(),
        d.dataParallel(), d.expertParallel(), d.attention(), d.quantisation().strip(), d.engine().strip(), d.notes().strip());
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
