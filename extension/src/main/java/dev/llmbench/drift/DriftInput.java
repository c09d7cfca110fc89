package dev.llmbench.drift;

import dev.llmbench.internal.load.OnceEachSource;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RequestExtras;
import dev.llmbench.internal.load.WorkloadSource;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code @Drift} as a sweep's input: each prompt once, greedy, as a one-turn conversation. Beside another source that
 * keeps its replies whole (an eval), it brings no prompts: it compares that source's replies, and only asks each
 * request for its logprobs.
 */
final class DriftInput extends OnceEachSource {

  private static final String REFUSAL = "@Drift sends each of its prompts once, greedy, with its own max_tokens: remove "
      + "@Trace, @Dataset, @SharedPrefix, @ExactInputTokens and @Workload's prompt, prompts, inputTokens, inputLength, "
      + "outputLength and several maxTokens from this sweep, or put @QualityEval beside it to compare the eval's replies";

  private final PlanContext context;
  private DriftPlan plan;
  private boolean brings = true;

  DriftInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    plan = DriftSettings.of(context.extension()).orElseThrow();
    brings = all.stream().noneMatch(s -> s != this && s.bringsPrompts());
    if (!brings) return;
    if (shapesPrompts(context.workload())) throw new IllegalArgumentException(REFUSAL);
  }

  @Override
  public boolean bringsPrompts() {
    return brings;
  }

  @Override
  protected int size() {
    return plan.prompts().size();
  }

  @Override
  protected String level() {
    return "a drift level";
  }

  @Override
  protected String item() {
    return "prompt";
  }

  @Override
  protected String refusal() {
    return REFUSAL;
  }

  @Override
  public PromptSource prompts() {
    return plan.source();
  }

  @Override
  public OptionalInt maxTokens() {
    return OptionalInt.of(plan.maxTokens());
  }

  @Override
  public RequestExtras extras() {
    return plan.extras();
  }

  @Override
  public <T> Optional<T> as(Class<T> type) {
    return type.isInstance(plan) ? Optional.of(type.cast(plan)) : super.as(type);
  }
}
