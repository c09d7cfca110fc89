package dev.llmbench.server;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Facts about the deployment a suite measures, all optional. Reports print them, and the analysis uses
 * them to name the likely bound and its usual remedies (tensor-parallel all-reduce over PCIe, MLA's
 * replicated KV cache, ...); without them its diagnosis stays generic and says what would sharpen it. On
 * the sweep method, its class or an enclosing class.
 *
 * <pre>{@code
 * @DeploymentFacts(gpus = "8x H20 96GB", interconnect = DeploymentFacts.Interconnect.PCIE, tensorParallel = 8,
 *     attention = DeploymentFacts.Attention.MLA, quantisation = "FP8", engine = "vLLM 0.11", gpuCount = 8, gpuHourPrice = 1.85)
 * class KimiDeploymentTest { ... }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = EXPERIMENTAL, since = "0.1")
public @interface DeploymentFacts {

  /** {@return the accelerators, e.g. {@code 8x H20 96GB}; empty when not said} */
  String gpus() default "";

  /** {@return how the accelerators of one replica talk to each other} */
  Interconnect interconnect() default Interconnect.UNSPECIFIED;

  /** {@return tensor-parallel size; 0 when not said} */
  int tensorParallel() default 0;

  /** {@return pipeline-parallel size; 0 when not said} */
  int pipelineParallel() default 0;

  /** {@return data-parallel size (replicas behind the endpoint, or data-parallel attention); 0 when not said} */
  int dataParallel() default 0;

  /** {@return expert-parallel size of a mixture-of-experts model; 0 when not said} */
  int expertParallel() default 0;

  /** {@return the model's attention} */
  Attention attention() default Attention.UNSPECIFIED;

  /** {@return weight (and KV-cache) quantisation, e.g. {@code FP8}, {@code AWQ INT4}; empty when not said} */
  String quantisation() default "";

  /** {@return the serving engine and its notable flags, e.g. {@code vLLM 0.11 --enable-expert-parallel}} */
  String engine() default "";

  /** {@return anything else a reader should know} */
  String notes() default "";

  /**
   * {@return how many GPUs the deployment holds (every replica's), which the price per GPU-hour is charged for; 0 when
   * not said}
   */
  int gpuCount() default 0;

  /**
   * {@return dollars per GPU-hour, e.g. {@code 2.5}: with {@link #gpuCount()}, each level's dollars per million
   * tokens ({@link TokenCost}); 0 when not said}
   */
  double gpuHourPrice() default 0;

  /** How the accelerators of one replica are connected. */
  enum Interconnect {
    /** Not said. */
    UNSPECIFIED,
    /** PCI Express between the accelerators. */
    PCIE,
    /** NVIDIA's NVLink between the accelerators. */
    NVLINK,
    /** InfiniBand, between machines. */
    INFINIBAND,
    /** Ethernet, between machines. */
    ETHERNET,
    /** One accelerator: nothing to connect. */
    SINGLE_DEVICE
  }

  /** The attention a model uses, which sets the size of its KV cache per token. */
  enum Attention {
    /** Not said. */
    UNSPECIFIED,
    /** Multi-head attention: one KV head per query head. */
    MHA,
    /** Grouped-query attention: query heads share fewer KV heads. */
    GQA,
    /** Multi-query attention: one KV head. */
    MQA,
    /** Multi-head latent attention (DeepSeek, Kimi): one compressed latent per token. */
    MLA
  }
}
