package dev.llmbench.quality;

import dev.llmbench.Workload;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.result.LoadShape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code @QualityEval} as a sweep's input: each item once, as a one-turn conversation, with the eval's own
 * {@code max_tokens}; a level is bounded by the items.
 */
final class EvalInput implements WorkloadSource {

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
    Workload w = context.workload();
    if (w.inputTokens().length > 0 || !w.prompt().isBlank() || !w.prompts().equals("builtin") || w.maxTokens().length > 1) {
      throw new IllegalArgumentException(REFUSAL);
    }
  }

  /** A count or a duration is checked level by level, against the items ({@link #checkLevel}). */
  @Override
  public boolean takes(Beside beside) {
    return beside == Beside.REQUEST_COUNT || beside == Beside.DURATION_OR_TARGET;
  }

  @Override
  public String refusal(Beside beside) {
    return REFUSAL;
  }

  @Override
  public PromptSource prompts() {
    return eval.prompts();
  }

  @Override
  public int requests(LoadShape load, int otherwise) {
    return eval.set().size();
  }

  @Override
  public void checkLevel(String label, LoadShape load, StopRule stop) {
    if (!(stop instanceof StopRule.Count c && c.requests() <= eval.set().size())) {
      throw new IllegalArgumentException(label + ": an eval level sends each of its " + eval.set().size() + " items "
          + "once, so it is bounded by them: leave @Measurement automatic (every item), or ask for at most that many "
          + "requests" + (stop instanceof StopRule.Count c ? " (it asks for " + c.requests() + ")" : ", not a duration or a "
          + "target interval"));
    }
  }

  @Override
  public OptionalInt maxTokens() {
    return OptionalInt.of(eval.maxTokens());
  }

  @Override
  public <T> Optional<T> as(Class<T> type) {
    return type.isInstance(eval) ? Optional.of(type.cast(eval)) : WorkloadSource.super.as(type);
  }
}
