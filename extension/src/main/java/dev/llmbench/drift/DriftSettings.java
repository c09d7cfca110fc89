package dev.llmbench.drift;

import dev.llmbench.internal.junit.Annotations;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The sweep's {@link Drift}, read and checked once per context: the planner sends its prompts, the feature compares them. */
final class DriftSettings {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DriftSettings.class);

  private DriftSettings() {}

  /** @throws IllegalArgumentException naming the attribute, or the file, line and field of a bad prompt */
  @SuppressWarnings("unchecked")
  static Optional<DriftPlan> of(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    Optional<DriftPlan> read = store.get(DriftPlan.class, Optional.class);
    if (read == null) {
      read = read(context);
      store.put(DriftPlan.class, read);
    }
    return read;
  }

  private static Optional<DriftPlan> read(ExtensionContext context) {
    Optional<Drift> found = Annotations.nearest(context, Drift.class);
    if (found.isEmpty()) return Optional.empty();
    Drift d = found.get();
    if (d.prompts() < 0) throw new IllegalArgumentException("@Drift 'prompts' must be 0 (all, or 16 of LLMBench's own) or positive, was " + d.prompts());
    if (d.maxTokens() < 1) throw new IllegalArgumentException("@Drift 'maxTokens' must be at least 1, was " + d.maxTokens());
    if (d.topLogprobs() < 0 || d.topLogprobs() > 20) {
      throw new IllegalArgumentException("@Drift 'topLogprobs' must be 0 (ask for none) to 20 (OpenAI's most), was " + d.topLogprobs());
    }
    boolean file = !d.path().isBlank();
    return Optional.of(new DriftPlan(file ? Path.of(d.path()).getFileName().toString() : "builtin",
        file ? DriftPrompts.read(Path.of(d.path()), d.prompts()) : DriftPrompts.builtIn(d.prompts()), d.maxTokens(),
        d.ignoreEos(), d.topLogprobs(), d.reference()));
  }
}
