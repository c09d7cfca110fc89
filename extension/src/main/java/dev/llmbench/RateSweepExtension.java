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

/** Turns {@link RateSweep} into one open-loop invocation per rate, validating the annotation first. */
final class RateSweepExtension implements TestTemplateInvocationContextProvider {

  static final String RATES_KEY = "llmbench.sweep.rates";

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, RateSweep.class)).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    RateSweep s = AnnotationSupport.findAnnotation(method, RateSweep.class).orElseThrow();
    String where = SweepPlanner.where(method);
    List<Double> rates = SweepPlanner.levels(context, RATES_KEY, Arrays.stream(s.value()).boxed().toList(),
        Double::parseDouble, where, "0.5,2,8");
    validate(rates, where);
    if (!(s.burstiness() > 0)) {
      throw SweepPlanner.configError(where, "'burstiness' must be positive (1 is Poisson), was " + s.burstiness());
    }
    if (s.maxConcurrency() < 0) {
      throw SweepPlanner.configError(where, "'maxConcurrency' must be 0 (no cap) or positive, was " + s.maxConcurrency());
    }
    SweepPlanner.Spec spec = new SweepPlanner.Spec(s.requests(), s.duration(), s.grace(), s.maxTokens(), s.inputTokens(),
        s.prompt(), s.prompts(), s.ignoreEos(), s.temperature(), s.warmupRequests(), s.seed(), s.percentiles(),
        s.targetCiHalfWidth(), s.maxRequests(), s.maxDuration(), s.name());
    List<SweepPlanner.Point> points = rates.stream().map(r -> new SweepPlanner.Point(s.maxConcurrency(), r,
        s.burstiness(), RateSweep.RATE_PLACEHOLDER, Formats.number(r), Math.max(10, (int) Math.ceil(10 * r)), 2)).toList();
    return SweepPlanner.invocations(context, where, spec, RateSweep.DEFAULT_NAME, points);
  }

  static void validate(List<Double> rates, String where) {
    if (rates.isEmpty()) {
      throw SweepPlanner.configError(where, "@RateSweep must list at least one rate, e.g. @RateSweep({1, 2, 4})");
    }
    Set<Double> seen = new HashSet<>();
    for (double r : rates) {
      if (!(r > 0) || Double.isInfinite(r)) {
        throw SweepPlanner.configError(where, "every rate must be a positive number of requests per second, but "
            + rates + " has " + Formats.number(r));
      }
      if (!seen.add(r)) throw SweepPlanner.configError(where, "rate " + Formats.number(r) + " is listed twice in " + rates);
    }
  }
}
