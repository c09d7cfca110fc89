package dev.llmbench.internal.junit;

import dev.llmbench.workload.ExactInputTokens;
import dev.llmbench.workload.SharedPrefix;
import dev.llmbench.Workload;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.tokens.SharedPrefixText;
import dev.llmbench.internal.tokens.Counters;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@code @ExactInputTokens} and {@code @SharedPrefix} beside a sweep, read and checked when it is planned, so
 * that a workload they cannot shape fails before any load: what each needs of {@code @Workload}, and a
 * tokenizer file that does not exist.
 */
final class InputShapes {

  private InputShapes() {}

  /** The shared-prefix workload's prompts, when the sweep declares one. */
  static Optional<PromptSource> prompts(ExtensionContext context, Workload workload) {
    Optional<SharedPrefix> shared = Annotations.nearest(context, SharedPrefix.class);
    if (shared.isEmpty()) return Optional.empty();
    SharedPrefix s = shared.get();
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")) {
      throw new IllegalArgumentException("@SharedPrefix makes its own prompts: remove @Workload's inputTokens, prompt and "
          + "prompts (its lengths are systemPromptTokens and questionTokens)");
    }
    if (Annotations.nearest(context, ExactInputTokens.class).isPresent()) {
      throw new IllegalArgumentException("@SharedPrefix lengths are counted in words, not aligned: remove @ExactInputTokens "
          + "from this sweep (it aligns @Workload(inputTokens) prompts)");
    }
    SharedPrefixText text = new SharedPrefixText(s.groups(), s.promptsPerGroup(), s.systemPromptTokens(), s.questionTokens(),
        workload.seed());
    String name = "shared-prefix-" + s.groups() + "x" + s.promptsPerGroup() + "-" + s.systemPromptTokens() + "+"
        + s.questionTokens();
    return Optional.of(PromptSource.generated(name, s.systemPromptTokens() + s.questionTokens(), workload.seed(), text));
  }

  /** How to align synthetic prompts, when the sweep asks for exact lengths. */
  static Optional<PromptSource.Exact> exact(ExtensionContext context, Workload workload) {
    Optional<ExactInputTokens> exact = Annotations.nearest(context, ExactInputTokens.class);
    if (exact.isEmpty()) return Optional.empty();
    // A trace's rows bring their own lengths: its blocks are aligned instead (@Trace checks @Workload's lengths).
    boolean trace = Annotations.nearest(context, dev.llmbench.trace.Trace.class).isPresent();
    if (workload.inputTokens().length == 0 && !trace) {
      throw new IllegalArgumentException("@ExactInputTokens aligns synthetic prompts or a trace's blocks: give the prompts' "
          + "lengths as @Workload(inputTokens = {...}), or replay a @Trace (a prompt set's lengths are its own)");
    }
    for (int n : workload.inputTokens()) {
      if (n < 1) throw new IllegalArgumentException("@Workload inputTokens must be at least 1, was " + n);
    }
    ExactInputTokens e = exact.get();
    if (e.method() == ExactInputTokens.Method.TOKENIZER_JSON && e.tokenizer().isBlank()) {
      throw new IllegalArgumentException("@ExactInputTokens(method = TOKENIZER_JSON) needs 'tokenizer', the path of the "
          + "served model's tokenizer.json");
    }
    if (!e.tokenizer().isBlank()) Counters.checkTokenizerFile(Path.of(e.tokenizer()));
    return Optional.of(new PromptSource.Exact(e.method(), e.tokenizer()));
  }
}
