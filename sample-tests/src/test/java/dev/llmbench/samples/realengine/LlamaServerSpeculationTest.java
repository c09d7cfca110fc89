package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Workload;
import dev.llmbench.launch.LaunchServer;
import dev.llmbench.server.ServerFigures;
import org.junit.jupiter.api.Tag;

/**
 * Speculative decoding read from the server, as vLLM's counters are: llama-server with a draft model (the tiny
 * model's Q4_0 copy drafting for it, 4 tokens at a time) publishes {@code llamacpp:spec_decode_num_drafts_total},
 * {@code llamacpp:spec_decode_num_draft_tokens_total} and {@code llamacpp:spec_decode_num_accepted_tokens_total};
 * each level's deltas give its acceptance rate and mean accepted length, in its report beside its figures.
 */
@Tag("real-engine")
@LlmEndpoint(readyTimeout = "2m")
@LaunchServer(command = {"bash", "../scripts/llama-server.sh", "run", "${port}", "2"},
    environment = "LLAMA_ARGS=-md /opt/llmbench/tiny-q4_0.gguf --spec-type draft-simple --spec-draft-n-max 4")
class LlamaServerSpeculationTest {

  @ConcurrencySweep({1, 2})
  @Workload(maxTokens = 32)
  void eachLevelHasTheServersAcceptanceRate(SweepLevelResult level) {
    assertThat(level).hasNoErrors().hasServerTokenCountsMatching();
    ServerFigures figures = level.serverFigures().orElseThrow();
    ServerFigures.Speculation s = figures.speculation().orElseThrow();
    System.out.printf("%s | %d drafts, %d draft tokens, %d accepted: acceptance %.3f, mean accepted length %.2f%n",
        level.label(), s.drafts(), s.draftTokens(), s.acceptedTokens(), s.acceptanceRate(), s.meanAcceptedLength());
    assertThat(s.source()).startsWith("llamacpp:spec_decode_num_accepted_tokens_total");
    assertThat(s.drafts()).isPositive();
    // Each draft proposes 1 to 4 tokens, and the target accepts at most what was proposed.
    assertThat(s.draftTokens()).isBetween(s.drafts(), 4 * s.drafts());
    assertThat(s.acceptedTokens()).isBetween(0L, s.draftTokens());
    assertThat(s.acceptanceRate()).isCloseTo((double) s.acceptedTokens() / s.draftTokens(), within(1e-12));
    assertThat(s.meanAcceptedLength()).isCloseTo(1 + (double) s.acceptedTokens() / s.drafts(), within(1e-12));
    // Every accepted token is an output token, and every step yields at least one: the server's own counts agree.
    assertThat(s.acceptedTokens() + s.drafts()).isLessThanOrEqualTo(level.outputTokens());
    assertThat(figures.requestsRunningPeak()).isBetween(0.0, 2.0); // llamacpp:requests_processing, 2 slots
  }
}
