package dev.llmbench.drift;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.result.ConfidenceInterval;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How far a candidate deployment's greedy replies drift from the reference's on the same prompts at one load.
 * Intervals are 95% bootstrap intervals over prompts (a prompt's positions resampled together). docs/drift.md.
 *
 * @param candidate       the deployment judged
 * @param reference       the deployment it is compared with
 * @param load            the load, such as {@code C=1}
 * @param prompts         prompts answered by both (a failed request on either side leaves the prompt out)
 * @param identical       replies token for token the reference's
 * @param identicalShare  {@code identical / prompts}, with its interval
 * @param commonPrefix    mean number of leading tokens in common, with its interval
 * @param referenceLength mean number of tokens of the reference's replies
 * @param positions       token positions where both saw the same context and both sent top_logprobs: each reply's
 *                        common prefix and the position after it; 0 without logprobs
 * @param top1Agreement   share of those positions where both chose the same token; empty without logprobs
 * @param meanKld         mean KL divergence (nats) of the candidate's top-k from the reference's there, tail mass
 *                        bucketed (a lower bound of the full-vocabulary KL); empty without logprobs
 * @param p99Kld          the 99th percentile of the per-position KL divergence; empty without logprobs
 * @param maxKld          the largest per-position KL divergence; empty without logprobs
 * @param topMass         the mean probability the reference's top-k holds at those positions: how much of the
 *                        distribution the KL divergence sees (the rest is one bucket); empty without logprobs
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record DriftComparison(String candidate, String reference, String load, int prompts, int identical,
    ConfidenceInterval identicalShare, ConfidenceInterval commonPrefix, double referenceLength, int positions,
    Optional<ConfidenceInterval> top1Agreement, Optional<ConfidenceInterval> meanKld, Optional<Double> p99Kld,
    Optional<Double> maxKld, Optional<Double> topMass) {}
