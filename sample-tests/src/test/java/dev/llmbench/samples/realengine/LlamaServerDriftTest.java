package dev.llmbench.samples.realengine;

import static dev.llmbench.assertions.LlmBenchAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.Warmup;
import dev.llmbench.deployments.Deployment;
import dev.llmbench.drift.Drift;
import dev.llmbench.drift.DriftAssert;
import dev.llmbench.drift.DriftComparison;
import dev.llmbench.drift.Drifts;
import org.junit.jupiter.api.Tag;

/**
 * Quantisation drift on a real engine: the tiny seeded model in F16 (8141), Q8_0 (8142) and Q4_0 (8143), each copy
 * made by {@code llama-quantize} and served by llama-server with 2 slots ({@code scripts/real-engine.sh}), and F16 once
 * more as a control (the same server under a second name: greedy on one thread is deterministic, so it must be
 * identical at C=1). The same 16 prompts, greedy, 32 tokens each (ignore_eos), with 20 top logprobs; every figure is what
 * the engine answered. Each prompt's row bans the tokens of single bytes 0x80-0xFF ({@code logit_bias}, ids 133-260 of
 * the tiny model's vocabulary): the random model picks them often, and llama-server streams neither the text nor the
 * logprobs of a token until its UTF-8 character is complete, so most of the tiny model's tokens would go unseen.
 */
@Tag("real-engine")
@Deployment(name = "f16", baseUrl = "http://127.0.0.1:8141")
@Deployment(name = "f16-again", baseUrl = "http://127.0.0.1:8141")
@Deployment(name = "q8_0", baseUrl = "http://127.0.0.1:8142")
@Deployment(name = "q4_0", baseUrl = "http://127.0.0.1:8143")
class LlamaServerDriftTest {

  @ConcurrencySweep({1, 2})
  @Drift(path = "src/test/resources/drift/llama-prompts.jsonl", maxTokens = 32, ignoreEos = true, topLogprobs = 20)
  @Warmup(requests = 0)
  void quantisationDrift(SweepLevelResult level, Drifts drift) {
    assertThat(level).hasNoErrors();
    drift.all().forEach(c -> System.out.printf("%s | %s vs %s: %d/%d identical, %.1f of %.1f leading tokens, top-1 %s, "
        + "mean KLD %s over %d positions%n", c.load(), c.candidate(), c.reference(), c.identical(), c.prompts(),
        c.commonPrefix().estimate(), c.referenceLength(), c.top1Agreement().map(a -> String.format("%.3f", a.estimate()))
            .orElse("n/a"), c.meanKld().map(k -> String.format("%.5f", k.estimate())).orElse("n/a"), c.positions()));
    if (!level.endpoint().deployment().orElseThrow().equals("q4_0")) return;
    // llama-server returns logprobs: every candidate has its logprob figures, and every prompt was answered by all.
    assertThat(drift.all()).hasSize(3).allSatisfy(c -> {
      assertThat(c.prompts()).isEqualTo(16);
      assertThat(c.meanKld()).isPresent();
      assertThat(c.top1Agreement()).isPresent();
    });
    if (drift.load().equals("C=1")) DriftAssert.assertThat(drift).candidate("f16-again").identicalShareAtLeast(1).meanKldAtMost(1e-6);
    // Four bits drift further than eight, token by token.
    DriftComparison q8 = drift.of("q8_0").orElseThrow();
    DriftComparison q4 = drift.of("q4_0").orElseThrow();
    assertThat(q4.meanKld().orElseThrow().estimate()).isGreaterThan(q8.meanKld().orElseThrow().estimate());
  }
}
