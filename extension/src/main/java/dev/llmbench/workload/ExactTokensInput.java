package dev.llmbench.workload;

import dev.llmbench.Workload;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.tokens.Counters;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code @ExactInputTokens} beside a sweep: it brings no prompts but aligns those of {@code @Workload(inputTokens)}
 * or of a source that takes the alignment (a trace's blocks) to their exact length before load. A tokenizer file
 * that does not exist fails now.
 */
final class ExactTokensInput implements WorkloadSource {

  private final PlanContext context;
  private PromptSource.Exact exact;

  ExactTokensInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    Workload workload = context.workload();
    // A source that takes the alignment (a trace) brings its own lengths: it checks @Workload's itself.
    boolean aligned = all.stream().anyMatch(s -> s != this && s.bringsPrompts() && s.takes(Beside.EXACT_INPUT_TOKENS));
    if (workload.inputTokens().length == 0 && !aligned) {
      throw new IllegalArgumentException("@ExactInputTokens aligns synthetic prompts or a trace's blocks: give the prompts' "
          + "lengths as @Workload(inputTokens = {...}), or replay a @Trace (a prompt set's lengths are its own)");
    }
    for (int n : workload.inputTokens()) {
      if (n < 1) throw new IllegalArgumentException("@Workload inputTokens must be at least 1, was " + n);
    }
    ExactInputTokens e = context.nearest(ExactInputTokens.class).orElseThrow();
    if (e.method() == ExactInputTokens.Method.TOKENIZER_JSON && e.tokenizer().isBlank()) {
      throw new IllegalArgumentException("@ExactInputTokens(method = TOKENIZER_JSON) needs 'tokenizer', the path of the "
          + "served model's tokenizer.json");
    }
    if (!e.tokenizer().isBlank()) Counters.checkTokenizerFile(Path.of(e.tokenizer()));
    exact = new PromptSource.Exact(e.method(), e.tokenizer());
  }

  @Override
  public boolean bringsPrompts() {
    return false;
  }

  @Override
  public String refusal(Beside beside) {
    throw new IllegalStateException("@ExactInputTokens brings no prompts: the source it shapes says what it takes");
  }

  @Override
  public Optional<PromptSource.Exact> exact() {
    return Optional.ofNullable(exact);
  }
}
