package dev.llmbench;

import dev.llmbench.config.DurationParser;
import dev.llmbench.load.LevelPlan;
import dev.llmbench.load.Workload;
import dev.llmbench.metrics.Percentiles;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/** Turns {@link ConcurrencySweep} into one invocation per level, validating the annotation first. */
final class ConcurrencySweepExtension implements TestTemplateInvocationContextProvider {

  static final String LEVELS_KEY = "llmbench.sweep.levels";
  static final String REQUESTS_KEY = "llmbench.sweep.requests";

  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, ConcurrencySweep.class)).orElse(false);
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    ConcurrencySweep sweep = AnnotationSupport.findAnnotation(method, ConcurrencySweep.class).orElseThrow();
    String where = method.getDeclaringClass().getSimpleName() + "#" + method.getName();
    SweepConfig common = SweepConfig.of(context, where, sweep.percentiles(), sweep.temperature(), sweep.prompt(),
        sweep.prompts(), sweep.seed());

    int[] levels = context.getConfigurationParameter(LEVELS_KEY).map(v -> parseLevels(v, where)).orElse(sweep.value());
    validateLevels(levels, where, "@ConcurrencySweep");
    int requests = context.getConfigurationParameter(REQUESTS_KEY).map(v -> parseInt(v, REQUESTS_KEY, where)).orElse(sweep.requests());
    if (requests < 0) throw configError(where, "'requests' must be 0 (automatic) or positive, was " + requests);
    if (sweep.maxTokens().length == 0) throw configError(where, "'maxTokens' must list at least one value");
    for (int m : sweep.maxTokens()) if (m < 1) throw configError(where, "every 'maxTokens' must be at least 1, was " + m);
    for (int n : sweep.inputTokens()) if (n < 1) throw configError(where, "every 'inputTokens' must be at least 1, was " + n);
    if (sweep.warmupRequests() < -1) throw configError(where, "'warmupRequests' must be -1 (automatic), 0 or positive");
    Duration duration = sweep.duration().isBlank() ? null : duration(sweep.duration(), "duration", where);
    Duration grace = duration(sweep.grace(), "grace", where);
    LevelPlan.AdaptivePlan adaptive = null;
    if (sweep.targetCiHalfWidth() < 0 || sweep.targetCiHalfWidth() >= 1) {
      throw configError(where, "'targetCiHalfWidth' must be in [0, 1), e.g. 0.05 for ±5%; was " + sweep.targetCiHalfWidth());
    }
    if (sweep.targetCiHalfWidth() > 0) {
      if (duration != null) throw configError(where, "set either 'duration' or 'targetCiHalfWidth' (adaptive), not both");
      int needed = common.percentiles().stream().mapToInt(Percentiles::samplesNeeded).max().orElse(1);
      int max = sweep.maxRequests() == 0 ? 1000 : sweep.maxRequests();
      if (max < needed) {
        throw configError(where, "'maxRequests' " + max + " is below the " + needed + " requests the highest percentile needs");
      }
      adaptive = new LevelPlan.AdaptivePlan(sweep.targetCiHalfWidth(), Math.max(needed, requests), max,
          duration(sweep.maxDuration(), "maxDuration", where));
    }

    int[] inputs = sweep.inputTokens().length == 0 ? new int[] {0} : sweep.inputTokens();
    boolean crossMax = sweep.maxTokens().length > 1;
    boolean crossInput = sweep.inputTokens().length > 1;
    String pattern = sweep.name().isBlank()
        ? ConcurrencySweep.DEFAULT_NAME + (crossInput ? ", input_tokens={input_tokens}" : "")
            + (crossMax ? ", max_tokens={max_tokens}" : "")
        : sweep.name();
    List<LevelPlan> plans = new ArrayList<>();
    for (int input : inputs) {
      for (int maxTokens : sweep.maxTokens()) {
        for (int c : levels) {
          int index = plans.size() + 1;
          String label = pattern.replace(ConcurrencySweep.CONCURRENCY_PLACEHOLDER, Integer.toString(c))
              .replace(ConcurrencySweep.MAX_TOKENS_PLACEHOLDER, Integer.toString(maxTokens))
              .replace(ConcurrencySweep.INPUT_TOKENS_PLACEHOLDER, Integer.toString(input))
              .replace(ConcurrencySweep.INDEX_PLACEHOLDER, Integer.toString(index));
          int n = duration != null ? 0 : requests > 0 ? requests : Math.max(10, 2 * c);
          Workload workload = input > 0 ? Workload.synthetic(input, sweep.seed()) : common.workload();
          int warmup = sweep.warmupRequests() == -1 ? c : sweep.warmupRequests();
          plans.add(new LevelPlan(label, c, 0, 1, n, duration, grace, maxTokens, input, sweep.ignoreEos(),
              common.temperature(), workload, warmup, adaptive));
        }
      }
    }
    int total = plans.size();
    return java.util.stream.IntStream.range(0, total).mapToObj(i -> invocation(plans.get(i), i + 1, total, common));
  }

  static TestTemplateInvocationContext invocation(LevelPlan plan, int index, int total, SweepConfig common) {
    return new TestTemplateInvocationContext() {
      @Override
      public String getDisplayName(int invocationIndex) {
        return plan.label();
      }

      @Override
      public List<Extension> getAdditionalExtensions() {
        return List.of(new SweepLevelExtension(plan, index, total, common.slo(), common.percentiles()));
      }
    };
  }

  static void validateLevels(int[] levels, String where, String annotation) {
    if (levels.length == 0) {
      throw configError(where, annotation + " must list at least one level, e.g. " + annotation + "({1, 2, 4, 8})");
    }
    Set<Integer> seen = new HashSet<>();
    for (int c : levels) {
      if (c < 1) throw configError(where, "every level must be a positive concurrency, but " + Arrays.toString(levels) + " has " + c);
      if (!seen.add(c)) throw configError(where, "level " + c + " is listed twice in " + Arrays.toString(levels) + "; list each once");
    }
  }

  private static int[] parseLevels(String value, String where) {
    try {
      return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).mapToInt(Integer::parseInt).toArray();
    } catch (NumberFormatException e) {
      throw configError(where, LEVELS_KEY + " '" + value + "' is not a comma-separated list of integers, e.g. 1,4,16");
    }
  }

  private static int parseInt(String value, String key, String where) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw configError(where, key + " '" + value + "' is not an integer");
    }
  }

  static Duration duration(String text, String attribute, String where) {
    try {
      Duration d = DurationParser.parse(text);
      if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("'" + text + "' must be positive");
      return d;
    } catch (IllegalArgumentException e) {
      throw configError(where, "'" + attribute + "': " + e.getMessage());
    }
  }

  static ExtensionConfigurationException configError(String where, String message) {
    return new ExtensionConfigurationException("Configuration error: sweep on method [" + where + "]: " + message);
  }

  /** Settings shared by every level of a sweep. */
  record SweepConfig(ServiceLevels slo, List<Double> percentiles, Double temperature, Workload workload) {

    static SweepConfig of(ExtensionContext context, String where, double[] percentiles, double temperature,
        String prompt, String prompts, long seed) {
      Method method = context.getRequiredTestMethod();
      if (percentiles.length == 0) throw configError(where, "'percentiles' must list at least one, e.g. {50, 90, 99}");
      List<Double> ps = new ArrayList<>();
      for (double p : percentiles) {
        if (p <= 0 || p >= 100) throw configError(where, "percentile " + p + " must be between 0 and 100, e.g. 99 or 99.9");
        if (ps.contains(p)) throw configError(where, "percentile " + p + " is listed twice");
        ps.add(p);
      }
      Optional<Slo> slo = AnnotationSupport.findAnnotation(method, Slo.class)
          .or(() -> AnnotationSupport.findAnnotation(context.getRequiredTestClass(), Slo.class));
      ServiceLevels levels = ServiceLevels.none();
      if (slo.isPresent()) {
        Slo s = slo.get();
        if (s.percentile() <= 0 || s.percentile() > 100) throw configError(where, "@Slo percentile must be in (0, 100], was " + s.percentile());
        levels = levels.atPercentile(s.percentile());
        if (!s.ttft().isBlank()) levels = levels.withTtft(duration(s.ttft(), "@Slo ttft", where));
        if (!s.tpot().isBlank()) levels = levels.withTpot(duration(s.tpot(), "@Slo tpot", where));
        if (!s.e2eLatency().isBlank()) levels = levels.withE2eLatency(duration(s.e2eLatency(), "@Slo e2eLatency", where));
      }
      Workload workload;
      try {
        workload = !prompt.isBlank() ? Workload.single(prompt, seed)
            : prompts.equals("builtin") ? Workload.builtIn(seed)
            : Workload.jsonl(Path.of(prompts), seed);
      } catch (RuntimeException e) {
        throw configError(where, "'prompts': " + e.getMessage());
      }
      return new SweepConfig(levels, List.copyOf(ps), temperature < 0 ? null : temperature, workload);
    }
  }
}
