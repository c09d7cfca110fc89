package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

import static dev.llmbench.internal.config.SettingKeys.SLO_ABORT_ON_FAIL;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_LEVELS;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_RATES;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_REQUESTS;
import static dev.llmbench.internal.config.SettingKeys.SWEEP_ROUNDS;
import static dev.llmbench.internal.config.SettingKeys.WORKLOAD_INPUT_LENGTH;
import static dev.llmbench.internal.config.SettingKeys.WORKLOAD_OUTPUT_LENGTH;

import dev.llmbench.capacity.CapacitySearch;
import dev.llmbench.ConcurrencySweep;
import dev.llmbench.datasets.Dataset;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.server.DeploymentFacts;
import dev.llmbench.result.LoadShape;
import dev.llmbench.Measurement;
import dev.llmbench.result.Rate;
import dev.llmbench.RateSweep;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.Slo;
import dev.llmbench.trace.Trace;
import dev.llmbench.trace.TraceReplay;
import dev.llmbench.Warmup;
import dev.llmbench.Workload;
import dev.llmbench.internal.config.DurationParser;
import dev.llmbench.internal.config.Settings;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.RequestExtras;
import dev.llmbench.quality.EvalPlan;
import dev.llmbench.sessions.SessionWorkload;
import dev.llmbench.internal.load.StopRule;
import dev.llmbench.internal.load.WorkloadPlan;
import dev.llmbench.datasets.DatasetLoader;
import dev.llmbench.datasets.DatasetReader;
import dev.llmbench.internal.workload.LengthDistribution;
import dev.llmbench.datasets.OpenAiChatReader;
import dev.llmbench.datasets.ShareGptReader;
import dev.llmbench.datasets.VllmCustomReader;
import dev.llmbench.trace.MooncakeTrace;
import dev.llmbench.trace.TraceSource;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import dev.llmbench.quality.QualitySettings;
import dev.llmbench.sessions.SessionSettings;

/**
 * Reads a sweep's annotations and settings once, validates them, and plans its levels: one per load point,
 * crossed with every input and output length.
 */
@API(status = INTERNAL)
public final class SweepPlanner {

  /** The sweep's levels, and what every level shares. */
  record SweepPlan(List<LevelPlan> levels, ServiceLevels slo, List<Double> percentiles, Optional<DeploymentDescription> facts,
      Optional<EvalPlan> eval) {}

  /**
   * One point of load and how its display name and automatic sizes follow from it.
   *
   * @param autoRequests requests when {@code @Measurement(requests)} is automatic
   * @param autoWarmup   warm-up requests when {@code @Warmup(requests)} is automatic
   */
  private record Point(LoadShape load, String placeholder, String value, int autoRequests, int autoWarmup, double timeScale) {
    Point(LoadShape load, String placeholder, String value, int autoRequests, int autoWarmup) {
      this(load, placeholder, value, autoRequests, autoWarmup, 0); // 0: not a replay at a trace's timestamps
    }
  }

  /** Carries the setting annotations' defaults for sweeps that do not declare them. */
  @Workload
  @Measurement
  @Warmup
  private static final class Defaults {}

  private SweepPlanner() {}

  static boolean isSweep(Method method) {
    return AnnotationSupport.isAnnotated(method, ConcurrencySweep.class) || AnnotationSupport.isAnnotated(method, RateSweep.class)
        || AnnotationSupport.isAnnotated(method, TraceReplay.class);
  }

  static SweepPlan plan(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    String where = ConfigurationErrors.where(method);
    try {
      return plan(context, method, where);
    } catch (IllegalArgumentException e) {
      throw ConfigurationErrors.sweep(where, e);
    }
  }

  private static SweepPlan plan(ExtensionContext context, Method method, String where) {
    Settings settings = Settings.of(context);
    Optional<ConcurrencySweep> closed = AnnotationSupport.findAnnotation(method, ConcurrencySweep.class);
    Optional<RateSweep> open = AnnotationSupport.findAnnotation(method, RateSweep.class);
    if (closed.isPresent() && open.isPresent()) {
      throw new IllegalArgumentException("a method is either a @ConcurrencySweep or a @RateSweep, not both");
    }
    Optional<TraceReplay> replay = AnnotationSupport.findAnnotation(method, TraceReplay.class);
    if (replay.isPresent() && (closed.isPresent() || open.isPresent())) {
      throw new IllegalArgumentException("a @TraceReplay sends at the trace's own timestamps, so it is not also a "
          + (closed.isPresent() ? "@ConcurrencySweep" : "@RateSweep") + "; to send the trace's rows under a concurrency or "
          + "a rate instead, keep @Trace and drop @TraceReplay");
    }
    Common common = common(context, settings, closed.isPresent());
    if (replay.isPresent() && common.trace().isEmpty()) {
      throw new IllegalArgumentException("@TraceReplay replays a trace: add @Trace(\"path/to/trace.jsonl\") beside it");
    }
    Workload workload = common.workload();
    List<Point> points;
    String name;
    String defaultName;
    if (closed.isPresent()) {
      List<Integer> levels = settings.get(SWEEP_LEVELS).optional().orElse(Arrays.stream(closed.get().value()).boxed().toList());
      points = closedPoints(levels);
      name = closed.get().name();
      defaultName = ConcurrencySweep.DEFAULT_NAME;
    } else if (replay.isPresent()) {
      points = tracePoints(replay.get(), common.trace().get());
      name = replay.get().name();
      defaultName = TraceReplay.DEFAULT_NAME;
    } else {
      RateSweep r = open.orElseThrow();
      List<Double> rates = settings.get(SWEEP_RATES).optional().orElse(Arrays.stream(r.value()).boxed().toList());
      points = openPoints(rates, r.burstiness(), r.maxConcurrency());
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
    Optional<DeploymentDescription> facts = Annotations.nearest(context, DeploymentFacts.class).map(DeploymentDescription::of)
        .filter(d -> !d.isEmpty());
    return new SweepPlan(RequestShapes.apply(context, List.copyOf(plans)), common.slo(), common.percentiles(), facts,
        common.eval());
  }

  /**
   * What every level of a method shares, read and validated once: the workload, how much each level
   * measures and warms up, the prompts, the objectives.
   */
  private record Common(Workload workload, Optional<StopRule> fixedRule, Count count, Warmup warmup, PromptSource prompts,
      Double temperature, ServiceLevels slo, List<Double> percentiles, Optional<LengthDistribution> outputLengths,
      Optional<PromptSource.Exact> exact, Optional<MooncakeTrace> trace, Optional<EvalPlan> eval,
      Optional<SessionWorkload> sessions, ExtensionContext context) {

    LevelPlan level(String label, Point p, int input, int maxTokens) {
      PromptSource source = p.timeScale() > 0 ? TraceSource.timed(trace.orElseThrow(), p.timeScale())
          : input > 0 ? PromptSource.synthetic(input, workload.seed()) : prompts;
      if (exact.isPresent()) source = source.exactly(exact.get());
      if (input == 0 && source.inputTokens() > 0) input = source.inputTokens(); // a generated workload's own length
      if (outputLengths.isPresent()) source = source.withOutputLengths(outputLengths.get());
      if (sessions.isPresent()) SessionSettings.checkOpenLoop(label, p.load(), sessions.get());
      // Whole sessions: a level sends their turns.
      int all = sessions.isPresent() ? sessions.get().turnsOfFirst(SessionSettings.sessionsPerLevel(context, p.load()))
          : eval.map(e -> e.set().size()).orElseGet(() -> trace.map(MooncakeTrace::rows).orElse(p.autoRequests()));
      StopRule stop = fixedRule.orElseGet(() -> new StopRule.Count(count.requests() > 0 ? count.requests()
          : count.rounds() > 0 ? count.rounds() * p.load().concurrency() : all));
      if (eval.isPresent() && !(stop instanceof StopRule.Count c && c.requests() <= eval.get().set().size())) {
        throw new IllegalArgumentException(label + ": an eval level sends each of its " + eval.get().set().size() + " items "
            + "once, so it is bounded by them: leave @Measurement automatic (every item), or ask for at most that many "
            + "requests" + (stop instanceof StopRule.Count c ? " (it asks for " + c.requests() + ")" : ", not a duration or a "
            + "target interval"));
      }
      if (trace.isPresent() && stop instanceof StopRule.Count c && c.requests() > trace.get().rows()) {
        throw new IllegalArgumentException(label + " would send " + c.requests() + " requests, but the trace "
            + trace.get().file() + " has " + trace.get().rows() + " rows and each is sent once: ask for at most "
            + trace.get().rows() + " (or leave @Measurement(requests) automatic for all of them)");
      }
      int warm = warmup.requests() == -1 ? p.autoWarmup() : warmup.requests();
      // A trace sets max_tokens per row; the plan carries the largest, as the level's figure to report.
      if (trace.isPresent()) maxTokens = trace.get().maxOutput();
      if (eval.isPresent()) maxTokens = eval.get().maxTokens();
      WorkloadPlan plan = new WorkloadPlan(maxTokens, input, workload.ignoreEos(), temperature, source, workload.prefixCache());
      return new LevelPlan(label, p.load(), stop, plan, warm, warmup.maxTokens() == -1 ? maxTokens : warmup.maxTokens(),
          workload.seed());
    }
  }

  private static Common common(ExtensionContext context, Settings settings, boolean closedLoop) {
    Workload workload = setting(context, Workload.class);
    Measurement measurement = setting(context, Measurement.class);
    Warmup warmup = setting(context, Warmup.class);
    List<Double> percentiles = percentiles(measurement.percentiles());
    Optional<Slo> declared = Annotations.nearest(context, Slo.class);
    ServiceLevels slo = declared.map(SweepPlanner::serviceLevels).orElse(ServiceLevels.none());
    slo = slo.abortingOnFail(settings.get(SLO_ABORT_ON_FAIL,
        declared.map(s -> Boolean.toString(s.abortOnFail())).orElse(null)).optional().orElse(false));
    Count count = count(settings, measurement, closedLoop);
    if (warmup.requests() < -1) throw new IllegalArgumentException("@Warmup 'requests' must be -1 (automatic), 0 or positive");
    if (warmup.maxTokens() == 0 || warmup.maxTokens() < -1) {
      throw new IllegalArgumentException("@Warmup 'maxTokens' must be -1 (the level's) or positive, was " + warmup.maxTokens());
    }
    if (workload.maxTokens().length == 0) throw new IllegalArgumentException("@Workload 'maxTokens' must list at least one value");
    Double temperature = workload.temperature() < 0 ? null : workload.temperature();
    Optional<LengthDistribution> inputLengths = lengths(settings, WORKLOAD_INPUT_LENGTH, workload.inputLength(), "inputLength");
    Optional<LengthDistribution> outputLengths = lengths(settings, WORKLOAD_OUTPUT_LENGTH, workload.outputLength(), "outputLength");
    Optional<Dataset> dataset = Annotations.nearest(context, Dataset.class);
    if (inputLengths.isPresent() && workload.inputTokens().length > 0) {
      throw new IllegalArgumentException("@Workload sets both 'inputTokens' and an input length distribution ("
          + inputLengths.get().spec() + "); keep one of them");
    }
    if (outputLengths.isPresent() && workload.maxTokens().length > 1) {
      throw new IllegalArgumentException("@Workload lists several 'maxTokens' and an output length distribution ("
          + outputLengths.get().spec() + "); keep one of them");
    }
    Optional<PromptSource> shared = InputShapes.prompts(context, workload);
    if (shared.isPresent() && (dataset.isPresent() || inputLengths.isPresent())) {
      throw new IllegalArgumentException("@SharedPrefix makes its own prompts: remove the @Dataset and @Workload's "
          + "inputLength (or llmbench.workload.input-length) from this sweep");
    }
    Optional<PromptSource.Exact> exact = InputShapes.exact(context, workload);
    Optional<StopRule> fixedRule = fixedStopRule(measurement, count.requests(), percentiles);
    Optional<MooncakeTrace> trace = trace(context, workload, fixedRule,
        AnnotationSupport.isAnnotated(context.getTestMethod(), TraceReplay.class));
    if (trace.isPresent() && (dataset.isPresent() || shared.isPresent() || inputLengths.isPresent()
        || outputLengths.isPresent())) {
      throw new IllegalArgumentException("@Trace brings each request's prompt and max_tokens: remove @Dataset, @SharedPrefix "
          + "and @Workload's inputLength and outputLength from this sweep (@ExactInputTokens beside it aligns its blocks)");
    }
    Optional<EvalPlan> eval = QualitySettings.of(context);
    Optional<SessionWorkload> sessions = SessionSettings.of(context, workload);
    if (sessions.isPresent() && (trace.isPresent() || dataset.isPresent() || shared.isPresent() || exact.isPresent()
        || eval.isPresent() || inputLengths.isPresent() || outputLengths.isPresent())) {
      throw new IllegalArgumentException("@Sessions makes each turn's prompt: remove @Trace, @Dataset, @SharedPrefix, "
          + "@ExactInputTokens, @QualityEval and the input and output length settings from this sweep (a file of "
          + "conversations is @Sessions(file = ...))");
    }
    if (sessions.isPresent() && (count.requests() > 0 || count.rounds() > 0)) {
      throw new IllegalArgumentException("a @Sessions level sends whole sessions: count them with @Sessions(sessions = N) "
          + "instead of @Measurement's requests or rounds (or llmbench.sweep.requests / rounds), or bound the level with "
          + "@Measurement(duration)");
    }
    if (eval.isPresent() && (trace.isPresent() || dataset.isPresent() || shared.isPresent() || exact.isPresent()
        || inputLengths.isPresent() || outputLengths.isPresent() || workload.inputTokens().length > 0
        || !workload.prompt().isBlank() || !workload.prompts().equals("builtin") || workload.maxTokens().length > 1)) {
      throw new IllegalArgumentException("@QualityEval brings each request's prompt and max_tokens: remove @Trace, @Dataset, "
          + "@SharedPrefix, @ExactInputTokens and @Workload's prompt, prompts, inputTokens, inputLength, outputLength and "
          + "several maxTokens from this sweep");
    }
    PromptSource prompts;
    if (sessions.isPresent()) {
      prompts = PromptSource.rows(sessions.get().name(), sessions.get());
    } else if (eval.isPresent()) {
      prompts = eval.get().prompts();
    } else if (trace.isPresent()) {
      prompts = TraceSource.rows(trace.get());
    } else if (shared.isPresent()) {
      prompts = shared.get();
    } else if (dataset.isPresent()) {
      if (!workload.prompt().isBlank() || !workload.prompts().equals("builtin") || workload.inputTokens().length > 0
          || inputLengths.isPresent()) {
        throw new IllegalArgumentException("@Dataset gives the prompts, so @Workload's 'prompt', 'prompts', 'inputTokens' "
            + "and 'inputLength' (or llmbench.workload.input-length) must stay unset; remove them or the @Dataset");
      }
      prompts = dataset(dataset.get(), workload.seed());
    } else {
      prompts = inputLengths.map(d -> PromptSource.synthetic(d, workload.seed())).orElseGet(() -> prompts(workload));
    }
    return new Common(workload, fixedRule, count, warmup, prompts, temperature, slo, percentiles, outputLengths, exact, trace,
        eval, sessions, context);
  }

  /** A length distribution from its setting, else from the attribute; empty when neither is set. */
  private static Optional<LengthDistribution> lengths(Settings settings, dev.llmbench.internal.config.Setting<LengthDistribution> key,
      String attribute, String name) {
    Optional<LengthDistribution> set = settings.get(key).optional();
    if (set.isPresent() || attribute.isBlank()) return set;
    try {
      return Optional.of(LengthDistribution.parse(attribute));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@Workload '" + name + "': " + e.getMessage(), e);
    }
  }

  /** Reads the dataset's rows now, before any request, so that bad input never sends load. */
  private static PromptSource dataset(Dataset d, long seed) {
    if (d.path().isBlank()) throw new IllegalArgumentException("@Dataset 'path' is empty; give the file, e.g. src/test/resources/sharegpt.json");
    if (d.rows() < 0) throw new IllegalArgumentException("@Dataset 'rows' must be 0 (every row) or positive, was " + d.rows());
    boolean rowLengths = d.outputLength() == Dataset.OutputLength.FROM_ROWS;
    DatasetReader reader = switch (d.format()) {
      case SHAREGPT -> new ShareGptReader(new ShareGptReader.Filter(d.minTokens(), d.maxInputTokens(), d.maxTotalTokens(),
          rowLengths));
      case OPENAI_CHAT -> new OpenAiChatReader();
      case VLLM_CUSTOM -> new VllmCustomReader();
    };
    try {
      return PromptSource.dataset(DatasetLoader.load(reader, Path.of(d.path()), d.rows(), d.sample() == Dataset.Sample.RANDOM,
          seed), rowLengths, seed);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("@Dataset(format = " + d.format() + "): " + e.getMessage(), e);
    }
  }

  /**
   * The sweep's {@link Trace}, read and checked whole (before any load), and what it rules out: the trace brings
   * each row's prompt and {@code max_tokens}, and sends each row once.
   */
  private static Optional<MooncakeTrace> trace(ExtensionContext context, Workload workload, Optional<StopRule> fixedRule,
      boolean replay) {
    Optional<Trace> t = Annotations.nearest(context, Trace.class);
    if (t.isEmpty()) return Optional.empty();
    if (workload.inputTokens().length > 0 || !workload.prompt().isBlank() || !workload.prompts().equals("builtin")) {
      throw new IllegalArgumentException("@Trace brings each request's prompt: drop @Workload's inputTokens, prompt and prompts");
    }
    if (workload.maxTokens().length > 1) {
      throw new IllegalArgumentException("@Trace sets each request's max_tokens from its output_length: give @Workload at "
          + "most one maxTokens (it is not used)");
    }
    if (!replay && fixedRule.isPresent()) {
      throw new IllegalArgumentException("under a concurrency or a rate a trace's rows are sent once each, so a level ends "
          + "with the trace: bound it with @Measurement(requests = N) for the first N rows, not by duration or target "
          + "interval (@TraceReplay levels may be bounded by duration)");
    }
    if (t.get().blockSize() < 1) throw new IllegalArgumentException("@Trace 'blockSize' must be at least 1 token, was "
        + t.get().blockSize());
    return Optional.of(TraceSource.check(Path.of(t.get().value()), t.get().blockSize()));
  }

  /**
   * Plans a capacity search's probes: a level at any load, planned as a sweep's level of that load would
   * be, for the one workload the method declares.
   */
  public static final class Probes {
    private final Common common;
    private final CapacitySearch search;
    private final RequestExtras extras;

    private Probes(Common common, CapacitySearch search, RequestExtras extras) {
      this.common = common;
      this.search = search;
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
      Point p = closedLoop ? closedPoints(List.of((int) load)).get(0)
          : openPoints(List.of(load), search.burstiness(), search.maxConcurrency()).get(0);
      String label = (closedLoop ? ConcurrencySweep.DEFAULT_NAME : RateSweep.DEFAULT_NAME).replace(p.placeholder(), p.value());
      int input = common.workload().inputTokens().length == 0 ? 0 : common.workload().inputTokens()[0];
      int maxTokens = common.outputLengths().map(d -> (int) Math.max(1, Math.round(d.mean()))).orElse(common.workload().maxTokens()[0]);
      return RequestShapes.with(common.level(label, p, input, maxTokens), extras);
    }
  }

  /** @throws IllegalArgumentException when the settings are unusable, or name more than one workload */
  public static Probes probes(ExtensionContext context, CapacitySearch search) {
    Common common = common(context, Settings.of(context), search.concurrency().length > 0);
    if (common.workload().maxTokens().length > 1 || common.workload().inputTokens().length > 1) {
      throw new IllegalArgumentException("a capacity search runs one workload: give @Workload one maxTokens and at most one "
          + "inputTokens");
    }
    if (common.slo().isEmpty()) {
      throw new IllegalArgumentException("a capacity search needs an SLO to search under: declare @Slo, e.g. "
          + "@Slo(ttft = \"2s\", tpot = \"50ms\", percentile = 90)");
    }
    // An open loop's options are checked now, before the first probe, as a sweep's are.
    openPoints(List.of(1.0), search.burstiness(), search.maxConcurrency());
    return new Probes(common, search, RequestShapes.extras(context));
  }

  /** Requests or whole rounds per level, at most one of them above 0 (0 and 0: automatic). */
  private record Count(int requests, int rounds) {}

  /**
   * A setting wins over both attributes, as every setting wins over its annotation; within one source,
   * requests and rounds are exclusive.
   */
  private static Count count(Settings settings, Measurement m, boolean closedLoop) {
    Optional<Integer> requests = settings.get(SWEEP_REQUESTS).optional();
    Optional<Integer> rounds = settings.get(SWEEP_ROUNDS).optional();
    Count count;
    if (requests.isPresent() && rounds.isPresent()) {
      throw new IllegalArgumentException("llmbench.sweep.requests and llmbench.sweep.rounds are both set; set one of them");
    } else if (requests.isPresent()) {
      count = new Count(requests.get(), 0);
    } else if (rounds.isPresent()) {
      count = new Count(0, rounds.get());
    } else {
      if (m.requests() < 0) throw new IllegalArgumentException("@Measurement 'requests' must be 0 (automatic) or positive, was " + m.requests());
      if (m.rounds() < 0) throw new IllegalArgumentException("@Measurement 'rounds' must be 0 (automatic) or positive, was " + m.rounds());
      if (m.requests() > 0 && m.rounds() > 0) {
        throw new IllegalArgumentException("@Measurement sets both 'requests' (" + m.requests() + ") and 'rounds' ("
            + m.rounds() + "); set one of them");
      }
      count = new Count(m.requests(), m.rounds());
    }
    if (count.rounds() > 0 && !closedLoop) {
      throw new IllegalArgumentException("'rounds' counts whole rounds of C requests in a closed loop; a @RateSweep "
          + "sends by rate: use 'requests' or 'duration'");
    }
    if (count.rounds() > 0 && (!m.duration().isBlank() || m.targetCiHalfWidth() > 0)) {
      throw new IllegalArgumentException("@Measurement bounds each level by 'rounds' and by "
          + (m.duration().isBlank() ? "'targetCiHalfWidth'" : "'duration'") + "; pick one");
    }
    return count;
  }

  private static <A extends java.lang.annotation.Annotation> A setting(ExtensionContext context, Class<A> type) {
    return Annotations.nearest(context, type).orElseGet(() -> Defaults.class.getAnnotation(type));
  }

  private static List<Point> closedPoints(List<Integer> levels) {
    if (levels.isEmpty()) {
      throw new IllegalArgumentException("@ConcurrencySweep must list at least one level, e.g. @ConcurrencySweep({1, 2, 4, 8})");
    }
    Set<Integer> seen = new HashSet<>();
    List<Point> points = new ArrayList<>();
    for (int c : levels) {
      if (c < 1) throw new IllegalArgumentException("every level must be a positive concurrency, but " + levels + " has " + c);
      if (!seen.add(c)) throw new IllegalArgumentException("level " + c + " is listed twice in " + levels + "; list each once");
      points.add(new Point(new LoadShape.ClosedLoop(c), ConcurrencySweep.CONCURRENCY_PLACEHOLDER, Integer.toString(c),
          c * autoRounds(c), c));
    }
    return points;
  }
  /**
   * Whole rounds, so that C requests are in flight from the first send to the last round: at least
   * {@value Measurement#MIN_ROUNDS}, and at least 10 requests for p90.
   */
  static int autoRounds(int concurrency) {
    return Math.max(Measurement.MIN_ROUNDS, (10 + concurrency - 1) / concurrency);
  }

  private static List<Point> openPoints(List<Double> rates, double burstiness, int maxConcurrency) {
    if (rates.isEmpty()) throw new IllegalArgumentException("@RateSweep must list at least one rate, e.g. @RateSweep({1, 2, 4})");
    if (!(burstiness > 0)) {
      throw new IllegalArgumentException("'burstiness' must be positive (1 is Poisson), was " + Formats.number(burstiness));
    }
    if (maxConcurrency < 0) {
      throw new IllegalArgumentException("'maxConcurrency' must be 0 (no cap) or positive, was " + maxConcurrency);
    }
    OptionalInt cap = maxConcurrency == 0 ? OptionalInt.empty() : OptionalInt.of(maxConcurrency);
    Set<Double> seen = new HashSet<>();
    List<Point> points = new ArrayList<>();
    List<String> written = rates.stream().map(Formats::number).toList(); // as the annotation has them: 2, not 2.0
    for (double r : rates) {
      if (!(r > 0) || Double.isInfinite(r)) {
        throw new IllegalArgumentException("every rate must be a positive number of requests per second, but " + written
            + " has " + Formats.number(r));
      }
      if (!seen.add(r)) throw new IllegalArgumentException("rate " + Formats.number(r) + " is listed twice in " + written + "; list each once");
      points.add(new Point(new LoadShape.OpenLoop(Rate.requestsPerSecond(r), burstiness, cap),
          RateSweep.RATE_PLACEHOLDER, Formats.number(r), Math.max(10, (int) Math.ceil(10 * r)), 2));
    }
    return points;
  }

  /** One level per time scale, each an open loop at the trace's timestamps; its rate is the trace's mean at that scale. */
  private static List<Point> tracePoints(TraceReplay replay, MooncakeTrace trace) {
    if (replay.timeScale().length == 0) {
      throw new IllegalArgumentException("@TraceReplay must list at least one time scale, e.g. @TraceReplay(timeScale = {1, 10})");
    }
    if (replay.maxConcurrency() < 0) {
      throw new IllegalArgumentException("'maxConcurrency' must be 0 (no cap) or positive, was " + replay.maxConcurrency());
    }
    OptionalInt cap = replay.maxConcurrency() == 0 ? OptionalInt.empty() : OptionalInt.of(replay.maxConcurrency());
    Set<Double> seen = new HashSet<>();
    List<Point> points = new ArrayList<>();
    for (double s : replay.timeScale()) {
      if (!(s > 0) || Double.isInfinite(s)) {
        throw new IllegalArgumentException("every time scale must be a positive number (10 replays ten times faster), but "
            + Arrays.toString(replay.timeScale()) + " has " + Formats.number(s));
      }
      if (!seen.add(s)) throw new IllegalArgumentException("time scale " + Formats.number(s) + " is listed twice");
      points.add(new Point(new LoadShape.OpenLoop(Rate.requestsPerSecond(TraceSource.meanRate(trace, s)), 1, cap),
          TraceReplay.TIME_SCALE_PLACEHOLDER, Formats.number(s), trace.rows(), 2, s));
    }
    return points;
  }

  /** A duration or adaptive rule when {@link Measurement} asks for one; empty for a count per level. */
  private static Optional<StopRule> fixedStopRule(Measurement m, int requests, List<Double> percentiles) {
    if (m.targetCiHalfWidth() < 0 || m.targetCiHalfWidth() >= 1) {
      throw new IllegalArgumentException("'targetCiHalfWidth' must be in [0, 1), e.g. 0.05 for ±5%; was " + m.targetCiHalfWidth());
    }
    Duration grace = duration(m.grace(), "grace");
    if (!m.duration().isBlank()) {
      if (m.targetCiHalfWidth() > 0) throw new IllegalArgumentException("set either 'duration' or 'targetCiHalfWidth' (adaptive), not both");
      return Optional.of(new StopRule.Timed(duration(m.duration(), "duration"), grace));
    }
    if (m.targetCiHalfWidth() == 0) return Optional.empty();
    int needed = percentiles.stream().mapToInt(dev.llmbench.result.Distribution::samplesNeeded).max().orElse(1);
    int max = m.maxRequests() == 0 ? 1000 : m.maxRequests();
    if (max < needed) {
      throw new IllegalArgumentException("'maxRequests' " + max + " is below the " + needed + " requests the highest percentile needs");
    }
    return Optional.of(new StopRule.Adaptive(m.targetCiHalfWidth(), Math.max(needed, requests), max,
        duration(m.maxDuration(), "maxDuration")));
  }

  private static List<Double> percentiles(double[] values) {
    if (values.length == 0) throw new IllegalArgumentException("'percentiles' must list at least one, e.g. {50, 90, 99}");
    List<Double> ps = new ArrayList<>();
    for (double p : values) {
      if (p <= 0 || p >= 100) throw new IllegalArgumentException("percentile " + p + " must be between 0 and 100, e.g. 99 or 99.9");
      if (ps.contains(p)) throw new IllegalArgumentException("percentile " + p + " is listed twice");
      ps.add(p);
    }
    return List.copyOf(ps);
  }

  private static ServiceLevels serviceLevels(Slo s) {
    if (s.percentile() <= 0 || s.percentile() > 100) {
      throw new IllegalArgumentException("@Slo percentile must be in (0, 100], was " + s.percentile());
    }
    ServiceLevels levels = ServiceLevels.none().atPercentile(s.percentile());
    if (!s.ttft().isBlank()) levels = levels.withTtft(duration(s.ttft(), "@Slo ttft"));
    if (!s.tpot().isBlank()) levels = levels.withTpot(duration(s.tpot(), "@Slo tpot"));
    if (!s.e2eLatency().isBlank()) levels = levels.withE2eLatency(duration(s.e2eLatency(), "@Slo e2eLatency"));
    return levels;
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

  private static Duration duration(String text, String attribute) {
    Duration d;
    try {
      d = DurationParser.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + attribute + "': " + e.getMessage(), e);
    }
    if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("'" + attribute + "': '" + text + "' must be positive");
    return d;
  }
}
