package dev.llmbench.quality;

import dev.llmbench.internal.load.OnceEachSource;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code @QualityEval} as a sweep's input: each item once, as a one-turn conversation, with the eval's own
 * {@code max_tokens}; a level is bounded by the items.
 */
final class EvalInput extends OnceEachSource {

  private static final String REFUSAL = "@QualityEval brings each request's prompt and max_tokens: remove @Trace, "
      + "@Dataset, @SharedPrefix, @ExactInputTokens and @Workload's prompt, prompts, inputTokens, inputLength, outputLength "
      + "and several maxTokens from this sweep";

  private final PlanContext context;
  private EvalPlan eval;

  EvalInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    eval = QualitySettings.of(context.extension()).orElseThrow();
    if (shapesPrompts(context.workload())) throw new IllegalArgumentException(REFUSAL);
  }

  @Override
  protected int size() {
    return eval.set().size();
  }

  @Override
  protected String level() {
    return "an eval level";
  }

  @Override
  protected String item() {
    return "item";
  }

  @Override
  protected String refusal() {
    return REFUSAL;
  }

  @Override
  public PromptSource prompts() {
    return eval.prompts();
  }

  @Override
  public OptionalInt maxTokens() {
    return OptionalInt.of(eval.maxTokens());
  }

  @Override
  public <T> Optional<T> as(Class<T> type) {
    return type.isInstance(eval) ? Optional.of(type.cast(eval)) : super.as(type);
  }
}
