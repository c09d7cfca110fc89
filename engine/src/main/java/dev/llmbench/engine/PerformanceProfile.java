package dev.llmbench.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * How the embedded engine spends time: a continuous-batching model where one decode step advances every
 * running sequence by one chunk, and the step grows with the batch.
 *
 * <p>step time = {@code stepBase + stepPerExtraSequence * (batch - 1) + prefillPerToken * (prompt tokens
 * admitted in this step)}. So single-stream decode speed is {@code tokensPerChunk / stepBase}, and
 * aggregate throughput at batch b is {@code b * tokensPerChunk / step(b)}.
 *
 * @param name             profile name, as used in {@code llmbench.embedded.profile}
 * @param model            model id served on {@code /v1/models}
 * @param stepBase         duration of a decode step with one sequence
 * @param stepPerExtraSequence added to a step for each further sequence in the batch
 * @param prefillPerToken  added to a step for each prompt token admitted in it
 * @param maxBatch         running sequences at most; the rest wait in a queue
 * @param reasoningTokens  tokens of reasoning sent before the content (0 for a plain model)
 * @param tokensPerChunk   tokens per streamed chunk (above 1, like speculative decoding)
 * @param description      one line for humans
 * @param accuracy         the chance it answers a generated eval item right (1 for the profiles that do not say):
 *                         drawn per item and request seed, see {@link EvalReplies}
 */
@API(status = INTERNAL)
public record PerformanceProfile(
    String name,
    String model,
    Duration stepBase,
    Duration stepPerExtraSequence,
    Duration prefillPerToken,
    int maxBatch,
    int reasoningTokens,
    int tokensPerChunk,
    String description,
    double accuracy) {

  /** A profile that answers every generated eval item right. */
  public PerformanceProfile(String name, String model, Duration stepBase, Duration stepPerExtraSequence,
      Duration prefillPerToken, int maxBatch, int reasoningTokens, int tokensPerChunk, String description) {
    this(name, model, stepBase, stepPerExtraSequence, prefillPerToken, maxBatch, reasoningTokens, tokensPerChunk,
        description, 1.0);
  }

  public PerformanceProfile {
    if (!(accuracy >= 0 && accuracy <= 1)) throw new IllegalArgumentException("accuracy is 0 to 1, was " + accuracy);
    if (maxBatch < 1) throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
    if (tokensPerChunk < 1) throw new IllegalArgumentException("tokensPerChunk must be at least 1");
    if (stepBase.isNegative() || stepBase.isZero()) throw new IllegalArgumentException("stepBase must be positive");
  }

  /** PCIe-bound MLA MoE: ~60 tok/s for one stream, ~800 tok/s at 32 streams (interconnect-bound). */
  public static final PerformanceProfile MLA_PCIE = new PerformanceProfile(
      "mla-pcie", "mla-moe-pcie", micros(16_500), micros(750),
      micros(150), 64, 0, 1,
      "1T-parameter MLA MoE on 8 PCIe GPUs: ~60 tok/s single stream, ~800 tok/s at C=32");

  /** GQA dense model on NVLink: scales to several thousand tok/s. */
  public static final PerformanceProfile GQA_DENSE = new PerformanceProfile(
      "gqa-dense", "gqa-dense-70b", Duration.ofMillis(10), micros(120),
      micros(40), 256, 0, 1,
      "GQA dense model: ~100 tok/s single stream, ~2,300 tok/s at C=32, ~3,600 at C=64");

  /** A reasoning model: 32 reasoning tokens before every answer. */
  public static final PerformanceProfile REASONING = new PerformanceProfile(
      "reasoning", "reasoner-8b", Duration.ofMillis(10), micros(200),
      micros(40), 128, 32, 1,
      "reasoning model: 32 reasoning tokens, then content, ~100 tok/s single stream");

  /** Exactly 20 ms per token whatever the batch, no prefill cost: for checking measurements. */
  public static final PerformanceProfile FIXED_20MS = new PerformanceProfile(
      "fixed-20ms", "fixed-20ms", Duration.ofMillis(20), Duration.ZERO, Duration.ZERO, 1024, 0, 1,
      "fixed 20 ms per decode step at any batch size, no prefill cost");

  /** Three tokens in each chunk, as speculative decoding streams them. */
  public static final PerformanceProfile SPECULATIVE = new PerformanceProfile(
      "speculative", "spec-decode-8b", Duration.ofMillis(15), micros(200),
      micros(40), 128, 0, 3,
      "speculative decoding: 3 tokens per chunk, ~200 tok/s single stream");

  /** One sequence at a time, like llama-server with one slot: every other request waits in the queue. */
  public static final PerformanceProfile SINGLE_SLOT = new PerformanceProfile(
      "single-slot", "single-slot-cpu", Duration.ofMillis(5), Duration.ZERO, micros(100), 1, 0, 1,
      "one slot, 5 ms per token: requests queue, as on llama-server -np 1");

  /**
   * The same dense model quantised to FP8: GQA-dense speed, and 90% of the generated eval items right (the
   * "original" of the quality sample).
   */
  public static final PerformanceProfile GQA_FP8 = new PerformanceProfile(
      "gqa-fp8", "gqa-70b-fp8", Duration.ofMillis(10), micros(120),
      micros(40), 256, 0, 1,
      "GQA dense model in FP8: gqa-dense's speed, 90% of generated eval items right", 0.90);

  /** Quantised further to INT4: faster steps, and 85% right, on the items FP8 finds easiest (see {@link EvalReplies}). */
  public static final PerformanceProfile GQA_INT4 = new PerformanceProfile(
      "gqa-int4", "gqa-70b-int4", Duration.ofMillis(7), micros(80),
      micros(30), 256, 0, 1,
      "GQA dense model in INT4: ~40% faster steps than FP8, 85% of generated eval items right", 0.85);

  /** 1 ms steps: fast enough for tests of the extension itself. */
  public static final PerformanceProfile INSTANT = new PerformanceProfile(
      "instant", "instant", Duration.ofMillis(1), Duration.ZERO, Duration.ZERO, 1024, 0, 1,
      "1 ms per decode step, for fast tests");

  private static Duration micros(long micros) {
    return Duration.ofNanos(micros * 1_000);
  }

  /** By name, in the order above (the order error messages list them in); never changed after start. */
  private static final Map<String, PerformanceProfile> BUILT_IN = Collections.unmodifiableMap(
      Stream.of(MLA_PCIE, GQA_DENSE, REASONING, FIXED_20MS, SPECULATIVE, SINGLE_SLOT, INSTANT, GQA_FP8, GQA_INT4)
          .collect(Collectors.toMap(PerformanceProfile::name, p -> p, (a, b) -> {
            throw new IllegalStateException("two built-in profiles are named " + a.name());
          }, LinkedHashMap::new)));

  /**
   * A built-in profile by name; a name may carry variants after the base name that change what it answers, not how
   * fast ({@code instant+diverge=5}, {@code gqa-dense+no-logprobs}: see {@link TokenLogprobs}).
   */
  public static Optional<PerformanceProfile> named(String name) {
    PerformanceProfile base = BUILT_IN.get(TokenLogprobs.base(name));
    if (base == null || name.equals(base.name())) return Optional.ofNullable(base);
    if (!TokenLogprobs.knows(name)) return Optional.empty();
    return Optional.of(new PerformanceProfile(name, base.model, base.stepBase, base.stepPerExtraSequence,
        base.prefillPerToken, base.maxBatch, base.reasoningTokens, base.tokensPerChunk, base.description + " (" + name
        + ")", base.accuracy));
  }

  public static Map<String, PerformanceProfile> builtIn() {
    return BUILT_IN;
  }

  /** How long one decode step takes with {@code batch} running sequences and {@code admittedPromptTokens} to prefill. */
  public Duration stepTime(int batch, long admittedPromptTokens) {
    return stepBase
        .plus(stepPerExtraSequence.multipliedBy(Math.max(0, batch - 1)))
        .plus(prefillPerToken.multipliedBy(admittedPromptTokens));
  }

  public PerformanceProfile withModel(String model) {
    return new PerformanceProfile(name, model, stepBase, stepPerExtraSequence, prefillPerToken, maxBatch,
        reasoningTokens, tokensPerChunk, description, accuracy);
  }

  /** This profile answering generated eval items right with probability {@code p}. */
  public PerformanceProfile withAccuracy(double p) {
    return new PerformanceProfile(name, model, stepBase, stepPerExtraSequence, prefillPerToken, maxBatch,
        reasoningTokens, tokensPerChunk, description, p);
  }
}
