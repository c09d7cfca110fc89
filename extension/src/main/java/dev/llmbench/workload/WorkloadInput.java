package dev.llmbench.workload;

import dev.llmbench.Workload;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RequestExtras;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.tokens.Counters;
import dev.llmbench.internal.tokens.SharedPrefixText;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * This package's annotations as a sweep's input, read and checked when it is planned: {@code @SharedPrefix} brings
 * the prompts (groups sharing a system prompt, each a one-turn conversation, lengths counted in words);
 * {@code @ExactInputTokens} aligns the prompts of {@code @Workload(inputTokens)} or of a source that takes the
 * alignment (a trace's blocks); {@code @ToolCalls}, {@code @StructuredOutput} and {@code @Embeddings} add to every
 * request ({@link RequestShapes}).
 */
final class WorkloadInput implements WorkloadSource {

  private final PlanContext context;
  private PromptSource shared;
  private PromptSource.Exact exact;
  private RequestExtras extras;

  WorkloadInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    Workload workload = context.workload();
    if (context.declares(SharedPrefix.class)) {
      checkShared(workload);
    } else if (context.declares(ExactInputTokens.class)) {
      checkExact(workload, all);
    }
  }

  private void checkShared(Workload workload) {
    SharedPrefix s = context.nearest(SharedPrefix.class).orElseThrow();
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
    shared = PromptSource.generated(name, s.systemPromptTokens() + s.questionTokens(), workload.seed(), text);
  }

  private void checkExact(Workload workload, List<WorkloadSource> all) {
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
    exact = new PromptSource.Exact(PromptSource.Exact.Counting.valueOf(e.method().name()), e.tokenizer());
  }

  /** The shared-prefix prompts are the sweep's; the alignment and what every request adds shape another's. */
  @Override
  public boolean bringsPrompts() {
    return context.declares(SharedPrefix.class);
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
    if (shared == null) throw new IllegalStateException("no @SharedPrefix: this workload brings no prompts");
    return shared;
  }

  @Override
  public Optional<PromptSource.Exact> exact() {
    return Optional.ofNullable(exact);
  }

  /** Read once, when the levels are planned: the tools file, the schema, the embeddings batch. */
  @Override
  public RequestExtras extras() {
    if (extras == null) extras = RequestShapes.extras(context);
    return extras;
  }

  /** The {@code tools} and {@code response_format} of every dataset row sent, with what every request adds. */
  @Override
  public void checkLevels(List<LevelPlan> levels) {
    RequestShapes.checkRows(levels, extras().bodyFields());
  }
}
