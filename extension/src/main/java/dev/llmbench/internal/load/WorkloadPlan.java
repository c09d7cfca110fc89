package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.CompletionRequest;
import org.apiguardian.api.API;

/**
 * What each request of a level sends.
 *
 * @param maxTokens   {@code max_tokens}
 * @param inputTokens synthetic prompt length, 0 when prompts come from a prompt set
 * @param ignoreEos   {@code ignore_eos}
 * @param temperature {@code temperature}, or null for the server's default
 * @param prompts     where the prompts come from
 */
@API(status = INTERNAL)
public record WorkloadPlan(int maxTokens, int inputTokens, boolean ignoreEos, Double temperature, PromptSource prompts) {

  public WorkloadPlan {
    if (maxTokens < 1) throw new IllegalArgumentException("max_tokens must be at least 1, was " + maxTokens);
    if (inputTokens < 0) throw new IllegalArgumentException("input tokens must not be negative, was " + inputTokens);
  }

  /** Request {@code index}, with {@code maxTokens} instead of the plan's (a warm-up may send shorter ones). */
  public CompletionRequest request(int index, int maxTokens) {
    return prompts.request(index, maxTokens, ignoreEos, temperature);
  }
}
