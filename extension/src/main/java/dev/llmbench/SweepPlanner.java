package dev.llmbench;

import dev.llmbench.internal.config.DurationParser;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.Workload;
import dev.llmbench.internal.metrics.Percentiles;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Turns the settings every sweep annotation shares into validated level plans: one per load point,
 * crossed with every input and output length, each its own test invocation.
 */
final class SweepPlanner {

  static final String REQUESTS_KEY = "llmbench.sweep.requests";

  private SweepPlanner() {}

  /** The attributes {@link ConcurrencySweep} and {@link RateSweep} have in common. */
  record Spec(int requests, String duration, String grace, int[] maxTokens, int[] inputTokens, String prompt,
      String prompts, boolean ignoreEos, double temperature, int warmupRequests, long seed, double[] percentiles,
      double targetCiHalfWidth, int maxRequests, String maxDuration, String name) {}

  /**
   * One point of load: the concurrency (closed loop, or an open loop's cap), the rate (0 for closed loop),
   * the open loop's burstiness, and the value the display name shows for it.
   */
  record Point(int concurrency, double rate, double burstiness, String placeholder, String value,
      int autoRequests, int autoWarmup) {}

  static Stream<TestTemplateInvocationContext> invocations(ExtensionContext context, String where, Spec spec,
      String defaultName, List<Point> points) {
    Config common = Config.of(context, where, spec);
    int requests = context.getConfigurationParameter(REQUESTS_KEY).map(v -> parseInt(v, REQUESTS_KEY, where))
        .orElse(spec.requests());
    if (requests < 0) throw configError(where, "'requests' must be 0 (automatic) or positive, was " + requests);
    if (spec.maxTokens().length == 0) throw configError(where, "'maxTokens' must list at least one value");
    for (int m : spec.maxTokens()) if (m < 1) throw configError(where, "every 'maxTokens' must be at least 1, was " + m);
    for (int n : spec.inputTokens()) if (n < 1) throw configError(where, "every 'inputTokens' must be at least 1, was " + n);
    if (spec.warmupRequests() < -1) throw configError(where, "'warmupRequests' must be -1 (automatic), 0 or positive");
    Duration duration = spec.duration().isBlank() ? null : duration(spec.duration(), "duration", where);
    Duration grace = duration(spec.grace(), "grace", where);
    LevelPlan.AdaptivePlan adaptive = adaptive(spec, common, requests, duration, where);

    int[] inputs = spec.inputTokens().length == 0 ? new int[] {0} : spec.inputTokens();
    boolean crossMax = spec.maxTokens().length > 1;
    boolean crossInput = spec.inputTokens().length > 1;
    String pattern = spec.name().isBlank()
        ? defaultName + (crossInput ? ", input_tokens={input_tokens}" : "") + (crossMax ? ", max_tokens={max_tokens}" : "")
        : spec.name();
    List<LevelPlan> plans = new ArrayList<>();
    for (int input : inputs) {
      for (int maxTokens : spec.maxTokens()) {
        for (Point p : points) {
          String label = pattern.replace(p.placeholder(), p.value())
              .replace(ConcurrencySweep.MAX_TOKENS_PLACEHOLDER, Integer.toString(maxTokens))
              .replace(ConcurrencySweep.INPUT_TOKENS_PLACEHOLDER, Integer.toString(input))
              .replace(ConcurrencySweep.INDEX_PLACEHOLDER, Integer.toString(plans.size() + 1));
          int n = duration != null ? 0 : requests > 0 ? requests : p.autoRequests();
          Workload workload = input > 0 ? Workload.synthetic(input, spec.seed()) : common.workload();
          int warmup = spec.warmupRequests() == -1 ? p.autoWarmup() : spec.warmupRequests();
          plans.add(new LevelPlan(label, p.concurrency(), p.rate(), p.burstiness(), n, duration, grace, maxTokens, input,
              spec.ignoreEos(), common.temperature(), workload, warmup, adaptive, spec.seed()));
        }
      }
    }
    int total = plans.size();
    return IntStream.range(0, total).mapToObj(i -> invocation(plans.get(i), i + 1, total, common));
  }

  private static LevelPlan.AdaptivePlan adaptive(Spec spec, Config common, int requests, Duration duration, String where) {
    if (spec.targetCiHalfWidth() < 0 || spec.targetCiHalfWidth() >= 1) {
      throw configError(where, "'targetCiHalfWidth' must be in [0, 1), e.g. 0.05 for ±5%; was " + spec.targetCiHalfWidth());
    }
    if (spec.targetCiHalfWidth() == 0) return null;
    if (duration != null) throw configError(where, "set either 'duration' or 'targetCiHalfWidth' (adaptive), not both");
    int needed = common.percentiles().stream().mapToInt(Percentiles::samplesNeeded).max().orElse(1);
    int max = spec.maxRequests() == 0 ? 1000 : spec.maxRequests();
    if (max < needed) {
      throw configError(where, "'maxRequests' " + max + " is below the " + needed + " requests the highest percentile needs");
    }
    return new LevelPlan.AdaptivePlan(spec.targetCiHalfWidth(), Math.max(needed, requests), max,
        duration(spec.maxDuration(), "maxDuration", where));
  }

  private static TestTemplateInvocationContext invocation(LevelPlan plan, int index, int total, Config common) {
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

  /** The method, as configuration errors name it. */
  static String where(Method method) {
    return method.getDeclaringClass().getSimpleName() + "#" + method.getName();
  }

  /** Levels from a configuration parameter override, or from the annotation; each parsed by {@code parse}. */
  static <T> List<T> levels(ExtensionContext context, String key, List<T> annotated,
      java.util.function.Function<String, T> parse, String where, String example) {
    Optional<String> override = context.getConfigurationParameter(key);
    if (override.isEmpty()) return annotated;
    try {
      return Stream.of(override.get().split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(parse).toList();
    } catch (NumberFormatException e) {
      throw configError(where, key + " '" + override.get() + "' is not a comma-separated list of numbers, e.g. " + example);
    }
  }

  static int parseInt(String value, String key, String where) {
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
  record Config(ServiceLevels slo, List<Double> percentiles, Double temperature, Workload workload) {

    static Config of(ExtensionContext context, String where, Spec spec) {
      Method method = context.getRequiredTestMethod();
      if (spec.percentiles().length == 0) throw configError(where, "'percentiles' must list at least one, e.g. {50, 90, 99}");
      List<Double> ps = new ArrayList<>();
      for (double p : spec.percentiles()) {
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
        workload = !spec.prompt().isBlank() ? Workload.single(spec.prompt(), spec.seed())
            : spec.prompts().equals("builtin") ? Workload.builtIn(spec.seed())
            : Workload.jsonl(Path.of(spec.prompts()), spec.seed());
      } catch (RuntimeException e) {
        throw configError(where, "'prompts': " + e.getMessage());
      }
      return new Config(levels, List.copyOf(ps), spec.temperature() < 0 ? null : spec.temperature(), workload);
    }
  }
}
