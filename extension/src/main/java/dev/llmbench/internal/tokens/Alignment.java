package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadPlan;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apiguardian.api.API;

/**
 * Aligns a level's synthetic prompts, or its rows' blocks ({@link ExactRows}), to their exact length, once the endpoint
 * is ready and before the warm-up.
 */
@API(status = INTERNAL)
public final class Alignment {

  private Alignment() {}

  /**
   * The plan with its prompts aligned when it asks for exact lengths ({@code @ExactInputTokens}), else the plan.
   *
   * @throws TokenCountException when they cannot be aligned here, saying what to change
   */
  public static LevelPlan align(OpenAiClient client, ApiStyle api, String model, LevelPlan plan) {
    WorkloadPlan w = plan.workload();
    PromptSource prompts = w.prompts();
    if (prompts.exact().isEmpty() || prompts.alignment().isPresent()) return plan;
    Optional<ExactRows> rows = prompts.rowSource().filter(ExactRows.class::isInstance).map(ExactRows.class::cast);
    if (prompts.hasRows() && rows.isEmpty()) return plan;
    if (!prompts.hasRows() && prompts.generator().isPresent()) return plan;
    PromptSource.Exact how = prompts.exact().get();
    TokenCounter counter = Counters.choose(how.method(), how.tokenizer(), client, api, model);
    String where = api == ApiStyle.CHAT ? "the chat API" : "the completions API";
    try {
      if (rows.isPresent()) {
        // Rows keep batches apart by namespace, not by a marker: the samples are sent as the rows are, bare.
        ExactText text = ExactText.align(counter, rows.get().sampleTokens(), prompts.seed(), where,
            (t, k) -> CompletionRequest.ofMessages(List.of(ChatMessage.user(t))).withMaxTokens(w.maxTokens())
                .withIgnoreEos(w.ignoreEos()));
        return plan.share(plan.load(), plan.stop(), w.withPrompts(prompts.withRows(rows.get().aligned(text))),
            plan.warmupRequests(), plan.seed());
      }
      // The samples carry markers of a batch of their own, as the warm-up's and the level's do.
      long salt = ThreadLocalRandom.current().nextLong();
      ExactText text = ExactText.align(counter, w.inputTokens(), prompts.seed(), where,
          (t, k) -> w.sendable(List.of(ChatMessage.user(t)), k, salt));
      return plan.share(plan.load(), plan.stop(), w.withPrompts(prompts.generatedBy(text)), plan.warmupRequests(),
          plan.seed());
    } finally {
      if (counter instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ignored) {
          // a tokenizer's native memory; nothing to report
        }
      }
    }
  }
}
