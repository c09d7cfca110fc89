package dev.llmbench;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/** Turns {@link ConcurrencySweep} into one invocation per level, validating the annotation first. */
final class ConcurrencySweepExtension implements TestTemplateInvocationContextProvider {

  static final String LEVELS_KEY = "llmbench.sweep.levels";

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, ConcurrencySweep.class)).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    ConcurrencySweep s = AnnotationSupport.findAnnotation(method, ConcurrencySweep.class).orElseThrow();
    String where = SweepPlanner.where(method);
    List<Integer> levels = SweepPlanner.levels(context, LEVELS_KEY, Arrays.stream(s.value()).boxed().toList(),
        Integer::parseInt, where, "1,4,16");
    validate(levels, where);
    SweepPlanner.Spec spec = new SweepPlanner.Spec(s.requests(), s.duration(), s.grace(), s.maxTokens(), s.inputTokens(),
        s.prompt(), s.prompts(), s.ignoreEos(), s.temperature(), s.warmupRequests(), s.seed(), s.percentiles(),
        s.targetCiHalfWidth(), s.maxRequests(), s.maxDuration(), s.name());
    List<SweepPlanner.Point> points = levels.stream().map(c -> new SweepPlanner.Point(c, 0, 1,
        ConcurrencySweep.CONCURRENCY_PLACEHOLDER, Integer.toString(c), Math.max(10, 2 * c), c)).toList();
    return SweepPlanner.invocations(context, where, spec, ConcurrencySweep.DEFAULT_NAME, points);
  }

  static void validate(List<Integer> levels, String where) {
    if (levels.isEmpty()) {
      throw SweepPlanner.configError(where, "@ConcurrencySweep must list at least one level, e.g. @ConcurrencySweep({1, 2, 4, 8})");
    }
    Set<Integer> seen = new HashSet<>();
    for (int c : levels) {
      if (c < 1) throw SweepPlanner.configError(where, "every level must be a positive concurrency, but " + levels + " has " + c);
      if (!seen.add(c)) throw SweepPlanner.configError(where, "level " + c + " is listed twice in " + levels + "; list each once");
    }
  }
}
