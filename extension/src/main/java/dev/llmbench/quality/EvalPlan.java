package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RowSource;
import org.apiguardian.api.API;

/**
 * An eval as a sweep sends it: the items, and what every request asks for.
 *
 * @param set         the items, request {@code i} sending item {@code i}
 * @param maxTokens   {@code max_tokens} of every request
 * @param seed        the {@code seed} every request sends
 * @param temperature the {@code temperature} every request sends
 */
record EvalPlan(EvalSet set, int maxTokens, long seed, double temperature) {

  public EvalPlan {
    if (maxTokens < 1) throw new IllegalArgumentException("maxTokens must be at least 1, was " + maxTokens);
    if (!(temperature >= 0)) throw new IllegalArgumentException("temperature must be at least 0, was " + temperature);
  }

  /**
   * The level's requests: item {@code i} as it is, with no unique marker (it would change the question) and
   * {@code ignore_eos} off (the answer ends where the model stops).
   */
  public PromptSource prompts() {
    return PromptSource.rows(set.name(), new RowSource() {
      @Override
      public CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace) {
        EvalItem item = set.items().get(index % set.size());
        return CompletionRequest.ofMessages(item.messages()).withMaxTokens(maxTokens).withTemperature(EvalPlan.this.temperature)
            .withSeed(seed);
      }

      @Override
      public boolean keepsReplies() {
        return true;
      }
    });
  }
}
