package dev.llmbench.deployments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.internal.config.DeploymentSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;

/** Serve flags crossed into candidates: every combination, in a stable order, each named after its values. */
class ServeMatrixTests {

  @ServeParam(name = "max-num-seqs", values = {"64", "256"})
  @ServeParam(name = "enable-prefix-caching", values = {"true", "false"})
  static class VllmMatrix {}

  @ServeParam(name = "model", values = {"/m/f16.gguf", "/m/q4_0.gguf"}, labels = {"F16", "Q4_0"})
  @ServeParam(name = "-np", values = {"1", "4"})
  static class LlamaMatrix {}

  @ServeParam(name = "model", values = {"a", "b"}, labels = "A")
  static class OneLabelShort {}

  private static List<DeploymentSpec> of(Class<?> c) {
    return ServeMatrix.candidates(AnnotationSupport.findRepeatableAnnotations(c, ServeParam.class));
  }

  @Test
  void theFirstParameterVariesSlowestAndEachCandidateIsNamedAfterItsValues() {
    List<DeploymentSpec> candidates = of(VllmMatrix.class);
    assertThat(candidates).extracting(DeploymentSpec::name).containsExactly("max-num-seqs-64_enable-prefix-caching",
        "max-num-seqs-64_no-enable-prefix-caching", "max-num-seqs-256_enable-prefix-caching",
        "max-num-seqs-256_no-enable-prefix-caching");
    assertThat(candidates.get(1).serve()).isEqualTo(Map.of("max-num-seqs", "64", "enable-prefix-caching", "false"));
    assertThat(candidates.get(1).serve().keySet()).containsExactly("max-num-seqs", "enable-prefix-caching");
  }

  @Test
  void labelsNameTheValuesAndAShortFlagIsNamedWithoutItsDash() {
    assertThat(of(LlamaMatrix.class)).extracting(DeploymentSpec::name).containsExactly("F16_np-1", "F16_np-4", "Q4_0_np-1",
        "Q4_0_np-4");
  }

  @Test
  void oneLabelPerValueOrNone() {
    assertThatThrownBy(() -> of(OneLabelShort.class)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("@ServeParam(name = \"model\") has 2 values and 1 labels; give one label per value, or none");
  }
}
