package dev.llmbench.drift;

import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RequestExtras;
import dev.llmbench.internal.load.RowSource;
import java.util.List;
import java.util.Map;

/**
 * A drift check as a sweep sends it.
 *
 * @param name        the prompts' name in reports: the file's, or {@code builtin}
 * @param prompts     each prompt, request {@code i} sending prompt {@code i}
 * @param maxTokens   {@code max_tokens} of every request
 * @param ignoreEos   {@code ignore_eos} of every request
 * @param topLogprobs {@code top_logprobs} asked for, 0 for none
 * @param reference   the reference deployment's name, empty for the first
 */
record DriftPlan(String name, List<DriftPrompts.Prompt> prompts, int maxTokens, boolean ignoreEos, int topLogprobs,
    String reference) {

  DriftPlan {
    prompts = List.copyOf(prompts);
  }

  /** What the reference's kept replies must have been sent for: the same prompts, the same max_tokens and top_logprobs. */
  String identity() {
    return name + ", " + prompts.size() + " prompts (hash " + Integer.toHexString(prompts.hashCode()) + "), max_tokens "
        + maxTokens + (ignoreEos ? ", ignore_eos" : "") + ", top_logprobs " + topLogprobs;
  }

  /** The body fields every request of the sweep adds: {@code logprobs} and {@code top_logprobs} when asked. */
  RequestExtras extras() {
    if (topLogprobs == 0) return RequestExtras.NONE;
    return new RequestExtras(Map.of("logprobs", "true", "top_logprobs", Integer.toString(topLogprobs)), 0);
  }

  /** The level's requests: prompt {@code i} as it is, greedy, seed 0, ending where the model stops or at max_tokens. */
  PromptSource source() {
    return PromptSource.rows(name, new RowSource() {
      @Override
      public CompletionRequest request(int index, boolean ignoreEos, Double temperature, long namespace) {
        DriftPrompts.Prompt p = prompts.get(index % prompts.size());
        CompletionRequest r = CompletionRequest.ofMessages(p.messages()).withMaxTokens(maxTokens).withTemperature(0)
            .withSeed(0).withIgnoreEos(DriftPlan.this.ignoreEos);
        for (Map.Entry<String, String> f : p.bodyFields().entrySet()) r = r.withBodyField(f.getKey(), f.getValue());
        return r;
      }

      @Override
      public boolean keepsReplies() {
        return true;
      }
    });
  }
}
