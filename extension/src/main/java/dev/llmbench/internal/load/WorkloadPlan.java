package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ChatMessage;
import dev.llmbench.CompletionRequest;
import dev.llmbench.Workload;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What each request of a level sends.
 *
 * @param maxTokens   {@code max_tokens}
 * @param inputTokens synthetic prompt length, 0 when prompts come from a prompt set
 * @param ignoreEos   {@code ignore_eos}
 * @param temperature {@code temperature}, or null for the server's default
 * @param prompts     where the prompts come from
 * @param prefixCache whether prompts get a unique prefix that keeps them out of the server's prefix cache
 */
@API(status = INTERNAL)
public record WorkloadPlan(int maxTokens, int inputTokens, boolean ignoreEos, Double temperature, PromptSource prompts,
    Workload.PrefixCache prefixCache) {

  public WorkloadPlan {
    if (maxTokens < 1) throw new IllegalArgumentException("max_tokens must be at least 1, was " + maxTokens);
    if (inputTokens < 0) throw new IllegalArgumentException("input tokens must not be negative, was " + inputTokens);
    Objects.requireNonNull(prefixCache, "prefixCache");
  }

  /** A plan that keeps every prompt out of the server's prefix cache. */
  public WorkloadPlan(int maxTokens, int inputTokens, boolean ignoreEos, Double temperature, PromptSource prompts) {
    this(maxTokens, inputTokens, ignoreEos, temperature, prompts, Workload.PrefixCache.AVOID);
  }

  /** The same workload over every {@code step}-th prompt from {@code first}: one shard's part. */
  public WorkloadPlan slice(int first, int step) {
    return new WorkloadPlan(maxTokens, inputTokens, ignoreEos, temperature, prompts.slice(first, step), prefixCache);
  }

  /**
   * Request {@code index}, with {@code maxTokens} instead of the plan's (a warm-up may send other ones);
   * {@code salt} tells one batch of requests (a level, a warm-up round) from every other.
   */
  public CompletionRequest request(int index, int maxTokens, long salt) {
    // A row's or a distribution's length is the level's own; a warm-up asking for other lengths keeps its own.
    CompletionRequest r = prompts.request(index, maxTokens, maxTokens == this.maxTokens, ignoreEos, temperature);
    return prefixCache == Workload.PrefixCache.AVOID ? prompts.withMarker(r, salt, index) : r;
  }

  /** This workload with other prompts (the same ones, aligned before load), everything else as it was. */
  public WorkloadPlan withPrompts(PromptSource aligned) {
    return new WorkloadPlan(maxTokens, inputTokens, ignoreEos, temperature, aligned, prefixCache);
  }

  /**
   * The request this plan sends as request {@code index} of batch {@code salt}, had its prompts made
   * {@code messages}: its marker, {@code max_tokens} and the rest, so that aligning counts what is sent.
   */
  public CompletionRequest sendable(List<ChatMessage> messages, int index, long salt) {
    CompletionRequest r = CompletionRequest.ofMessages(messages).withMaxTokens(maxTokens).withIgnoreEos(ignoreEos);
    return prefixCache == Workload.PrefixCache.AVOID ? prompts.withMarker(r, salt, index) : r;
  }
}
