package dev.llmbench.internal.junit;

import static dev.llmbench.internal.config.SettingKeys.GPU_COUNT;
import static dev.llmbench.internal.config.SettingKeys.GPU_HOUR_PRICE;
import static dev.llmbench.internal.config.SettingKeys.SLO_ABORT_ON_FAIL;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_LEVELS;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_RATES;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_TARGET_CI_HALF_WIDTH;
import static dev.llmbench.internal.config.SettingKeys.WORKLOAD_INPUT_LENGTH;
import static dev.llmbench.internal.config.SettingKeys.WORKLOAD_OUTPUT_LENGTH;
import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.ConcurrencySweep;
import dev.llmbench.Measurement;
import dev.llmbench.RateSweep;
import dev.llmbench.Slo;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.junit.LoadPoints.Point;
import dev.llmbench.internal.junit.MeasureSettings.Count;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RequestExtras;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.load.WorkloadSource.Beside;
import dev.llmbench.result.LoadShape;
import dev.llmbench.internal.spi.Features;
import dev.llmbench.internal.workload.LengthDistribution;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.server.DeploymentFacts;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Reads a sweep's annotations and settings once, validates them, and plans its levels: one per load point,
 * crossed with every input and output length. Its input comes from the sources the registered features declare
 * ({@link WorkloadSource}); each says what it takes beside it, so the planner names none of them.
 */
@API(status = INTERNAL)
public final class SweepPlanner {

  /** The sweep's levels, what every level shares, and the source of its input (none: {@code @Workload}'s prompts). */
  record SweepPlan(List<LevelPlan> levels, ServiceLevels slo, List<Double> percentiles, Optional<DeploymentDescription> facts,
      Optional<WorkloadSource> source) {}

  /** Carries the setting annotations' defaults for sweeps that do not declare them. */
  @Workload
  @Measurement
  @Warmup
  private static final class Defaults {}

  private SweepPlanner() {}

  static boolean isSweep(Method method) {
    return AnnotationSupport.isAnnotated(method, ConcurrencySweep.class) || AnnotationSupport.isAnnotated(method, RateSweep.class)
        || sources(new Context(Optional.of(method), Optional.of(method.getDeclaringClass()), null)).stream()
            .anyMatch(WorkloadSource::replays);
  }

  static SweepPlan plan(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    String where = ConfigurationErrors.where(method);
    try {
      return plan(context, method);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(where, e);
    }
  }

  private static SweepPlan plan(ExtensionContext context, Method method) {
    Settings settings = Settings.of(context);
    Optional<ConcurrencySweep> closed = AnnotationSupport.findAnnotation(method, ConcurrencySweep.class);
    Optional<RateSweep> open = AnnotationSupport.findAnnotation(method, RateSweep.class);
    if (closed.isPresent() && open.isPresent()) {
      throw new IllegalArgumentException("a method is either a @ConcurrencySweep or a @RateSweep, not both");
    }
    Common common = common(context, settings, closed.isPresent());
    Workload workload = common.workload();
    Optional<WorkloadSource> replayed = common.sources().stream().filter(WorkloadSource::replays).findFirst();
    List<Point> points;
    String name;
    String defaultName;
    if (closed.isPresent()) {
      List<Integer> levels = settings.get(SWEEP_LEVELS).optional().orElse(Arrays.stream(closed.get().value()).boxed().toList());
      points = LoadPoints.closed(levels);
      name = closed.get().name();
      defaultName = ConcurrencySweep.DEFAULT_NAME;
    } else if (replayed.isPresent()) {
      WorkloadSource.Replay replay = replayed.get().replay();
      points = LoadPoints.replay(replay);
      name = replay.name();
      defaultName = replay.defaultName();
    } else {
      RateSweep r = open.orElseThrow();
      List<Double> rates = settings.get(SWEEP_RATES).optional().orElse(Arrays.stream(r.value()).boxed().toList());
      points = LoadPoints.open(rates, r.burstiness(), r.maxConcurrency());
      name = r.name();
      defaultName = RateSweep.DEFAULT_NAME;
    }

    int[] inputs = workload.inputTokens().length == 0 ? new int[] {0} : workload.inputTokens();
    boolean crossMax = workload.maxTokens().length > 1;
    boolean crossInput = workload.inputTokens().length > 1;
    String pattern = name.isBlank()
        ? defaultName + (crossInput ? ", input_tokens={input_tokens}" : "") + (crossMax ? ", max_tokens={max_tokens}" : "")
        : name;
    List<LevelPlan> plans = new ArrayList<>();
    // A level whose max_tokens are drawn is known by the distribution's mean (labels, warm-up, the JSON's max_tokens).
    int[] maxTokensList = common.outputLengths().map(d -> new int[] {(int) Math.max(1, Math.round(d.mean()))})
        .orElse(workload.maxTokens());
    for (int input : inputs) {
      for (int maxTokens : maxTokensList) {
        for (Point p : points) {
          String label = pattern.replace(p.placeholder(), p.value())
              .replace(Workload.MAX_TOKENS_PLACEHOLDER, Integer.toString(maxTokens))
              .replace(Workload.INPUT_TOKENS_PLACEHOLDER, Integer.toString(input))
              .replace(Workload.INDEX_PLACEHOLDER, Integer.toString(plans.size() + 1));
          plans.add(common.level(label, p, input, maxTokens));
        }
      }
    }
    Optional<DeploymentDescription> facts = facts(context, settings);
    List<LevelPlan> levels = List.copyOf(plans);
    for (WorkloadSource s : common.sources()) s.checkLevels(levels);
    RequestExtras extras = common.extras();
    return new SweepPlan(levels.stream().map(l -> with(l, extras)).toList(), common.slo(), common.percentiles(), facts,
        common.main());
  }

  /**
   * What every level of a method shares, read and validated once: the workload, how much each level
   * measures and warms up, the prompts and the source they come from, the objectives.
   */
  private record Common(Workload workload, Optional<StopRule> fixedRule, Count count, Optional<StopRule.Precision> precision,
      Warmup warmup, PromptSource prompts, Double temperature, ServiceLevels slo, List<Double> percentiles,
      Optional<LengthDistribution> outputLengths, Optional<PromptSource.Exact> exact, List<WorkloadSource> sources,
      Optional<WorkloadSource> main) {

    /** What every request adds, as the sources say (none when they add nothing). */
    RequestExtras extras() {
      return sources.stream().map(WorkloadSource::extras).filter(e -> e != RequestExtras.NONE).findFirst()
          .orElse(RequestExtras.NONE);
    }

    /**
     * A closed-loop level of automatic size goes on after its count until its throughput is known to the precision
     * (llmbench.sweep.target-ci-half-width), where more requests are more of the same: synthetic prompts or a file's
     * rows, not an eval's items, sessions or a trace, whose levels are their own size.
     */
    Optional<StopRule.Precision> automaticPrecision(LoadShape load) {
      if (!(load instanceof LoadShape.ClosedLoop) || precision.isEmpty()) return Optional.empty();
      boolean moreOfTheSame = main.isEmpty() || main.get().takes(Beside.REQUEST_COUNT) && main.get().takes(Beside.DURATION_OR_TARGET)
          && !main.get().prompts().keepsReplies();
      return moreOfTheSame ? precision : Optional.empty();
    }

    LevelPlan level(String label, Point p, int input, int maxTokens) {
      PromptSource source = p.prompts() != null ? p.prompts() : input > 0 ? PromptSource.synthetic(input, workload.seed())
          : prompts;
      if (exact.isPresent()) source = source.exactly(exact.get());
      if (input == 0 && source.inputTokens() > 0) input = source.inputTokens(); // a generated workload's own length
      if (outputLengths.isPresent()) source = source.withOutputLengths(outputLengths.get());
      int all = main.map(m -> m.requests(p.load(), p.autoRequests())).orElse(p.autoRequests());
      StopRule stop = fixedRule.orElseGet(() -> count.requests() > 0 ? new StopRule.Count(count.requests())
          : count.rounds() > 0 ? new StopRule.Count(count.rounds() * p.load().concurrency())
          : new StopRule.Count(all, automaticPrecision(p.load()).map(pr -> pr.covering(all))));
      if (main.isPresent()) main.get().checkLevel(label, p.load(), stop);
      int warm = warmup.requests() == -1 ? p.autoWarmup() : warmup.requests();
      // A source that sets max_tokens per request (a trace's rows, an eval's) gives the level's figure to report.
      if (main.isPresent()) maxTokens = main.get().maxTokens().orElse(maxTokens);
      WorkloadPlan plan = new WorkloadPlan(maxTokens, input, workload.ignoreEos(), temperature, source, workload.prefixCache());
      return new LevelPlan(label, p.load(), stop, plan, warm, warmup.maxTokens() == -1 ? maxTokens : warmup.maxTokens(),
          workload.seed());
    }
  }

  private static Common common(ExtensionContext context, Settings settings, boolean closedLoop) {
    Workload workload = setting(context, Workload.class);
    Measurement measurement = setting(context, Measurement.class);
    Warmup warmup = setting(context, Warmup.class);
    List<Double> percentiles = MeasureSettings.percentiles(measurement.percentiles());
    Optional<Slo> declared = Annotations.nearest(context, Slo.class);
    ServiceLevels slo = declared.map(MeasureSettings::serviceLevels).orElse(ServiceLevels.none());
    slo = slo.abortingOnFail(settings.get(SLO_ABORT_ON_FAIL,
        declared.map(s -> Boolean.toString(s.abortOnFail())).orElse(null)).optional().orElse(false));
    Count count = MeasureSettings.count(settings, measurement, closedLoop);
    if (warmup.requests() < -1) throw new IllegalArgumentException("@Warmup 'requests' must be -1 (automatic), 0 or positive");
    if (warmup.maxTokens() == 0 || warmup.maxTokens() < -1) {
      throw new IllegalArgumentException("@Warmup 'maxTokens' must be -1 (the level's) or positive, was " + warmup.maxTokens());
    }
    if (workload.maxTokens().length == 0) throw new IllegalArgumentException("@Workload 'maxTokens' must list at least one value");
    Double temperature = workload.temperature() < 0 ? null : workload.temperature();
    Optional<LengthDistribution> inputLengths = MeasureSettings.lengths(settings, WORKLOAD_INPUT_LENGTH, workload.inputLength(),
        "inputLength");
    Optional<LengthDistribution> outputLengths = MeasureSettings.lengths(settings, WORKLOAD_OUTPUT_LENGTH,
        workload.outputLength(), "outputLength");
    if (inputLengths.isPresent() && workload.inputTokens().length > 0) {
      throw new IllegalArgumentException("@Workload sets both 'inputTokens' and an input length distribution ("
          + inputLengths.get().spec() + "); keep one of them");
    }
    if (outputLengths.isPresent() && workload.maxTokens().length > 1) {
      throw new IllegalArgumentException("@Workload lists several 'maxTokens' and an output length distribution ("
          + outputLengths.get().spec() + "); keep one of them");
    }
    Optional<StopRule> fixedRule = MeasureSettings.fixedStopRule(measurement, count.requests(), percentiles);
    List<WorkloadSource> sources = sources(new Context(context.getTestMethod(), context.getTestClass(), context));
    for (WorkloadSource s : sources) s.check(sources);
    Optional<PromptSource.Exact> exact = sources.stream().map(WorkloadSource::exact).flatMap(Optional::stream).findFirst();
    Set<Beside> beside = EnumSet.noneOf(Beside.class);
    if (exact.isPresent()) beside.add(Beside.EXACT_INPUT_TOKENS);
    if (inputLengths.isPresent()) beside.add(Beside.INPUT_LENGTHS);
    if (outputLengths.isPresent()) beside.add(Beside.OUTPUT_LENGTHS);
    if (count.requests() > 0 || count.rounds() > 0) beside.add(Beside.REQUEST_COUNT);
    if (fixedRule.isPresent()) beside.add(Beside.DURATION_OR_TARGET);
    List<WorkloadSource> bringing = sources.stream().filter(WorkloadSource::bringsPrompts).toList();
    // Each source refuses what it does not take; of two sources, the first the registry lists says so.
    for (WorkloadSource s : bringing) {
      if (bringing.size() > 1 && !s.takes(Beside.ANOTHER_SOURCE)) throw new IllegalArgumentException(s.refusal(Beside.ANOTHER_SOURCE));
      for (Beside b : beside) {
        if (!s.takes(b)) throw new IllegalArgumentException(s.refusal(b));
      }
    }
    Optional<WorkloadSource> main = bringing.stream().findFirst();
    PromptSource prompts = main.map(WorkloadSource::prompts).orElseGet(() -> inputLengths
        .map(d -> PromptSource.synthetic(d, workload.seed())).orElseGet(() -> prompts(workload)));
    Settings.Resolved<Double> target = settings.get(SWEEP_TARGET_CI_HALF_WIDTH);
    int cap = measurement.maxRequests() > 0 ? measurement.maxRequests() : StopRule.Precision.DEFAULT_MAX_REQUESTS;
    Optional<StopRule.Precision> precision = target.optional().filter(t -> t > 0).map(t -> new StopRule.Precision(t, cap,
        StopRule.Precision.DEFAULT_MAX_DURATION, target.source().equals("default")));
    return new Common(workload, fixedRule, count, precision, warmup, prompts, temperature, slo, percentiles, outputLengths,
        exact, sources, main);
  }

  /** The input sources the registered features find on a method, in the registry's order. */
  private static List<WorkloadSource> sources(PlanContext context) {
    return Features.all().stream().map(f -> f.workload(context)).flatMap(Optional::stream).toList();
  }

  /** A method as its sources are planned from it; {@code extension} is null when it is only asked whether it is a sweep. */
  private record Context(Optional<Method> method, Optional<Class<?>> testClass, ExtensionContext extension)
      implements PlanContext {
    @Override
    public <A extends Annotation> Optional<A> nearest(Class<A> type) {
      return Annotations.nearest(method, testClass, type);
    }

    @Override
    public <A extends Annotation> Optional<A> onMethod(Class<A> type) {
      return method.flatMap(m -> AnnotationSupport.findAnnotation(m, type));
    }

    @Override
    public Workload workload() {
      return nearest(Workload.class).orElseGet(() -> Defaults.class.getAnnotation(Workload.class));
    }

    @Override
    public ExtensionContext extension() {
      if (extension == null) throw new IllegalStateException("no JUnit context: the method is not being planned");
      return extension;
    }
  }

  /**
   * Plans a capacity search's probes: a level at any load, planned as a sweep's level of that load would
   * be, for the one workload the method declares.
   */
  public static final class Probes {
    private final Common common;
    private final double burstiness;
    private final int maxConcurrency;
    private final RequestExtras extras;

    private Probes(Common common, double burstiness, int maxConcurrency, RequestExtras extras) {
      this.common = common;
      this.burstiness = burstiness;
      this.maxConcurrency = maxConcurrency;
      this.extras = extras;
    }

    public ServiceLevels slo() {
      return common.slo();
    }

    public List<Double> percentiles() {
      return common.percentiles();
    }

    /** The probe at {@code load}: a concurrency for a closed-loop search, a rate for an open one. */
    public LevelPlan at(double load, boolean closedLoop) {
      Point p = closedLoop ? LoadPoints.closed(List.of((int) load)).get(0)
          : LoadPoints.open(List.of(load), burstiness, maxConcurrency).get(0);
      String label = (closedLoop ? ConcurrencySweep.DEFAULT_NAME : RateSweep.DEFAULT_NAME).replace(p.placeholder(), p.value());
      int input = common.workload().inputTokens().length == 0 ? 0 : common.workload().inputTokens()[0];
      int maxTokens = common.outputLengths().map(d -> (int) Math.max(1, Math.round(d.mean()))).orElse(common.workload().maxTokens()[0]);
      return with(common.level(label, p, input, maxTokens), extras);
    }
  }

  /**
   * @param closedLoop     whether the search probes concurrencies (else rates, in an open loop)
   * @param burstiness     an open loop's burstiness
   * @param maxConcurrency an open loop's cap, 0 for none
   * @throws IllegalArgumentException when the settings are unusable, or name more than one workload
   */
  public static Probes probes(ExtensionContext context, boolean closedLoop, double burstiness, int maxConcurrency) {
    Common common = common(context, Settings.of(context), closedLoop);
    if (common.workload().maxTokens().length > 1 || common.workload().inputTokens().length > 1) {
      throw new IllegalArgumentException("a capacity search runs one workload: give @Workload one maxTokens and at most one "
          + "inputTokens");
    }
    if (common.slo().isEmpty()) {
      throw new IllegalArgumentException("a capacity search needs an SLO to search under: declare @Slo, e.g. "
          + "@Slo(ttft = \"2s\", tpot = \"50ms\", percentile = 90)");
    }
    // An open loop's options are checked now, before the first probe, as a sweep's are.
    LoadPoints.open(List.of(1.0), burstiness, maxConcurrency);
    return new Probes(common, burstiness, maxConcurrency, common.extras());
  }

  /**
   * {@return what the suite says about its deployment: its {@code @DeploymentFacts}, with the settings' GPU count and
   * price, which win over the annotation's so that a run can be priced without a code change; empty when nothing is said}
   *
   * @param context the sweep method's (or a capacity search's)
   */
  public static Optional<DeploymentDescription> facts(ExtensionContext context) {
    return facts(context, Settings.of(context));
  }

  private static Optional<DeploymentDescription> facts(ExtensionContext context, Settings settings) {
    return Optional.of(Annotations.nearest(context, DeploymentFacts.class).map(DeploymentDescription::of)
        .orElse(DeploymentDescription.NONE)
        .withCost(settings.get(GPU_COUNT).optional().orElse(0), settings.get(GPU_HOUR_PRICE).optional().orElse(0.0)))
        .filter(d -> !d.isEmpty());
  }

  /** {@code level} with what every request adds; the level itself when nothing is added. */
  private static LevelPlan with(LevelPlan level, RequestExtras extras) {
    if (extras == RequestExtras.NONE) return level;
    return level.share(level.load(), level.stop(), level.workload().withExtras(extras), level.warmupRequests(), level.seed());
  }

  private static <A extends Annotation> A setting(ExtensionContext context, Class<A> type) {
    return Annotations.nearest(context, type).orElseGet(() -> Defaults.class.getAnnotation(type));
  }

  private static PromptSource prompts(Workload w) {
    try {
      return !w.prompt().isBlank() ? PromptSource.single(w.prompt(), w.seed())
          : w.prompts().equals("builtin") ? PromptSource.builtIn(w.seed())
          : PromptSource.jsonl(Path.of(w.prompts()), w.seed());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("@Workload 'prompts': " + e.getMessage(), e);
    }
  }
}
