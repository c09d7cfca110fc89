package dev.llmbench.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's drift variants: what a profile name with {@code +diverge=N} or {@code +no-logprobs} answers. */
class TokenLogprobsTests {

  @Test
  void aVariantKeepsItsProfilesSpeedAndAnUnknownOneIsNoProfile() {
    PerformanceProfile p = PerformanceProfile.named("gqa-dense+diverge=3+no-logprobs").orElseThrow();
    assertThat(p.stepBase()).isEqualTo(PerformanceProfile.GQA_DENSE.stepBase());
    assertThat(p.name()).isEqualTo("gqa-dense+diverge=3+no-logprobs");
    assertThat(TokenLogprobs.of(p.name())).isEqualTo(new TokenLogprobs(3, false));
    assertThat(PerformanceProfile.named("gqa-dense+bogus")).isEmpty();
    assertThat(PerformanceProfile.named("gqa-dense")).contains(PerformanceProfile.GQA_DENSE);
  }

  @Test
  void theAnswerDivergesAtItsPositionAndTheTwoChoicesSwapThere() {
    TokenLogprobs v = TokenLogprobs.of("instant+diverge=1");
    List<String> answer = v.answer(List.of(" a", " b", " c"));
    assertThat(answer).containsExactly(" a", " b~1", " c~2");
    ArrayNode content = new ObjectMapper().createArrayNode();
    v.entry(content, answer.get(1), 1, 2);
    assertThat(content.get(0).path("top_logprobs").get(0).path("token").asText()).isEqualTo(" b~1");
    assertThat(content.get(0).path("top_logprobs").get(1).path("token").asText()).isEqualTo(" b");
    assertThat(content.get(0).path("logprob").asDouble()).isEqualTo(Math.log(0.5));
    assertThat(content.get(0).path("top_logprobs").get(1).path("logprob").asDouble()).isEqualTo(Math.log(0.25));
  }
}
