package dev.llmbench.quality;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import dev.llmbench.engine.sets.GeneratedSets;
import dev.llmbench.internal.junit.Annotations;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The sweep's {@link QualityEval}, read and checked whole before any load: its items and what each request asks. */
final class QualitySettings {

  /** Items of a generated set when {@code items} is 0. */
  static final int DEFAULT_GENERATED_ITEMS = 100;

  private QualitySettings() {}

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(QualitySettings.class);

  /**
   * The sweep's eval, read once per context: the planner sends its items and the quality feature grades them, and a
   * set read twice could be two sets.
   *
   * @throws IllegalArgumentException naming the attribute, or the file, line and field of a bad row
   */
  @SuppressWarnings("unchecked")
  public static Optional<EvalPlan> of(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    Optional<EvalPlan> read = store.get(EvalPlan.class, Optional.class);
    if (read == null) {
      read = read(context);
      store.put(EvalPlan.class, read);
    }
    return read;
  }

  private static Optional<EvalPlan> read(ExtensionContext context) {
    Optional<QualityEval> found = Annotations.nearest(context, QualityEval.class);
    if (found.isEmpty()) return Optional.empty();
    QualityEval q = found.get();
    if (q.items() < 0) throw new IllegalArgumentException("@QualityEval 'items' must be 0 (all) or positive, was " + q.items());
    if (!(q.tolerance() >= 0)) throw new IllegalArgumentException("@QualityEval 'tolerance' must be at least 0, was " + q.tolerance());
    if (q.maxTokens() < 1) throw new IllegalArgumentException("@QualityEval 'maxTokens' must be at least 1, was " + q.maxTokens());
    if (!(q.temperature() >= 0)) {
      throw new IllegalArgumentException("@QualityEval 'temperature' must be at least 0, was " + q.temperature());
    }
    boolean generated = q.generated() != QualityEval.Generated.NONE;
    if (generated == !q.path().isBlank()) {
      throw new IllegalArgumentException("@QualityEval needs exactly one of 'generated' (a set LLMBench makes) and 'path' "
          + "(an eval file)" + (generated ? "; it has both" : "; it has neither, e.g. generated = Generated.ARITHMETIC"));
    }
    EvalSet set;
    if (generated) {
      int n = q.items() == 0 ? DEFAULT_GENERATED_ITEMS : q.items();
      if (n > GeneratedSets.MAX_ITEMS) {
        throw new IllegalArgumentException("@QualityEval 'items' " + n + " is more than a generated set has ("
            + GeneratedSets.MAX_ITEMS + ")");
      }
      GeneratedSets.Kind kind = switch (q.generated()) {
        case ARITHMETIC -> GeneratedSets.Kind.ARITHMETIC;
        case MULTIPLE_CHOICE -> GeneratedSets.Kind.CHOICE;
        case EXACT_MATCH -> GeneratedSets.Kind.EXACT;
        case EVERY_GRADER -> GeneratedSets.Kind.MIXED;
        case NONE -> throw new IllegalStateException();
      };
      set = GeneratedEvals.set(kind, n, q.tolerance());
    } else {
      EvalFiles.Format format = EvalFiles.Format.valueOf(q.format().name());
      set = EvalFiles.read(Path.of(q.path()), format, q.items(), q.tolerance());
    }
    return Optional.of(new EvalPlan(set, q.maxTokens(), q.seed(), q.temperature()));
  }
}
