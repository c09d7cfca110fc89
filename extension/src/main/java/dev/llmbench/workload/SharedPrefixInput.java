package dev.llmbench.workload;

import dev.llmbench.Workload;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.tokens.SharedPrefixText;
import java.util.List;

/**
 * {@code @SharedPrefix} as a sweep's input: groups of prompts that share a system prompt, each a one-turn
 * conversation. Its lengths are counted in words, so it takes no alignment, and it makes its own prompts.
 */
final class SharedPrefixInput implements WorkloadSource {

  private final PlanContext context;
  private PromptSource prompts;

  SharedPrefixInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    SharedPrefix s = context.nearest(SharedPrefix.class).orElseThrow();
    Workload workload = context.workload();
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")) {
      throw new IllegalArgumentException("@SharedPrefix makes its own prompts: remove @Workload's inputTokens, prompt and "
          + "prompts (its lengths are systemPromptTokens and questionTokens)");
    }
    if (context.declares(ExactInputTokens.class)) {
      throw new IllegalArgumentException("@SharedPrefix lengths are counted in words, not aligned: remove @ExactInputTokens "
          + "from this sweep (it aligns @Workload(inputTokens) prompts)");
    }
    SharedPrefixText text = new SharedPrefixText(s.groups(), s.promptsPerGroup(), s.systemPromptTokens(), s.questionTokens(),
        workload.seed());
    String name = "shared-prefix-" + s.groups() + "x" + s.promptsPerGroup() + "-" + s.systemPromptTokens() + "+"
        + s.questionTokens();
    prompts = PromptSource.generated(name, s.systemPromptTokens() + s.questionTokens(), workload.seed(), text);
  }

  @Override
  public boolean takes(Beside beside) {
    return beside == Beside.OUTPUT_LENGTHS || beside == Beside.REQUEST_COUNT || beside == Beside.DURATION_OR_TARGET;
  }

  @Override
  public String refusal(Beside beside) {
    return "@SharedPrefix makes its own prompts: remove the @Dataset and @Workload's inputLength (or "
        + "llmbench.workload.input-length) from this sweep";
  }

  @Override
  public PromptSource prompts() {
    return prompts;
  }
}
