package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Workload;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import java.util.List;
import java.util.Map;
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
 * @param extras      what every request adds: tools, a response format, or that it is an embeddings batch
 */
@API(status = INTERNAL)
public record WorkloadPlan(int maxTokens, int inputTokens, boolean ignoreEos, Double temperature, PromptSource prompts,
    Workload.PrefixCache prefixCache, RequestExtras extras) {

  public WorkloadPlan {
    if (maxTokens < 1) throw new IllegalArgumentException("max_tokens must be at least 1, was " + maxTokens);
    if (inputTokens < 0) throw new IllegalArgumentException("input tokens must not be negative, was " + inputTokens);
    Objects.requireNonNull(prefixCache, "prefixCache");
    Objects.requireNonNull(extras, "extras");
  }

  /** A plan whose requests add nothing to their prompts. */
  public WorkloadPlan(int maxTokens, int inputTokens, boolean ignoreEos, Double temperature, PromptSource prompts,
      Workload.PrefixCache prefixCache) {
    this(maxTokens, inputTokens, ignoreEos, temperature, prompts, prefixCache, RequestExtras.NONE);
  }

  /** This workload with every request adding {@code newExtras}. */
  public WorkloadPlan withExtras(RequestExtras newExtras) {
    return new WorkloadPlan(maxTokens, inputTokens, ignoreEos, temperature, prompts, prefixCache, newExtras);
  }

  /**
   * The inputs of embeddings request {@code index}: the prompts requests {@code index * batch} to
   * {@code index * batch + batch - 1} would have sent, each its messages' text.
   */
  public List<String> embeddingInputs(int index, long salt) {
    int batch = extras.embeddingBatch();
    if (batch < 1) throw new IllegalStateException("not an embeddings workload");
    List<String> inputs = new java.util.ArrayList<>(batch);
    for (int i = 0; i < batch; i++) {
      CompletionRequest r = generation(index * batch + i, maxTokens, salt);
      StringBuilder text = new StringBuilder();
      for (ChatMessage m : r.messages()) text.append(text.length() == 0 ? "" : "\n").append(m.content());
      inputs.add(text.toString());
    }
    return inputs;
  }

  /** A plan that keeps every prompt out of the server's prefix cache. */
  public WorkloadPlan(int maxTokens, int inputTokens, boolean ignoreEos, Double temperature, PromptSource prompts) {
    this(maxTokens, inputTokens, ignoreEos, temperature, prompts, Workload.PrefixCache.AVOID);
  }

  /** The same workload over every {@code step}-th prompt from {@code first}: one shard's part. */
  public WorkloadPlan slice(int first, int step) {
    return new WorkloadPlan(maxTokens, inputTokens, ignoreEos, temperature, prompts.slice(first, step), prefixCache, extras);
  }

  /**
   * Request {@code index}, with {@code maxTokens} instead of the plan's (a warm-up may send other ones);
   * {@code salt} tells one batch of requests (a level, a warm-up round) from every other.
   */
  public CompletionRequest request(int index, int maxTokens, long salt) {
    CompletionRequest r = generation(index, maxTokens, salt);
    Map<String, String> row = r.bodyFields();
    for (Map.Entry<String, String> f : extras.bodyFields().entrySet()) {
      // A row's own tools keep their own choice too: the workload's may name a tool the row does not offer.
      boolean rowHas = row.containsKey(f.getKey()) || f.getKey().equals("tool_choice") && row.containsKey("tools");
      if (!rowHas) r = r.withBodyField(f.getKey(), f.getValue());
    }
    // A tool call or a JSON answer is judged as the model ends it: ignore_eos would run it on into text that never parses.
    if (r.ignoreEos() && (r.bodyFields().containsKey("tools") || r.bodyFields().containsKey("response_format"))) {
      r = r.withIgnoreEos(false);
    }
    return r;
  }

  private CompletionRequest generation(int index, int maxTokens, long salt) {
    // Rows (a trace) share prefixes on purpose: AVOID keeps each batch in a namespace of its own instead of a
    // per-request marker, which would break the reuse the rows ask for; REUSE puts every batch in one.
    if (prompts.hasRows()) return prompts.rowRequest(index, ignoreEos, temperature, prefixCache == Workload.PrefixCache.AVOID ? salt : 0);
    // A row's or a distribution's length is the level's own; a warm-up asking for other lengths keeps its own.
    CompletionRequest r = prompts.request(index, maxTokens, maxTokens == this.maxTokens, ignoreEos, temperature);
    return prefixCache == Workload.PrefixCache.AVOID ? prompts.withMarker(r, salt, index) : r;
  }

  /** This workload with other prompts (the same ones, aligned before load), everything else as it was. */
  public WorkloadPlan withPrompts(PromptSource aligned) {
    return new WorkloadPlan(maxTokens, inputTokens, ignoreEos, temperature, aligned, prefixCache, extras);
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
