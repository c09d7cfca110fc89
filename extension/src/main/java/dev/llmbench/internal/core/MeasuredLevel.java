package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.result.ClientLoad;
import dev.llmbench.result.ConfidenceInterval;
import dev.llmbench.server.DeploymentDescription;
import dev.llmbench.EndpointInfo;
import dev.llmbench.result.Finding;
import dev.llmbench.server.GpuTelemetry;
import dev.llmbench.result.InputAlignment;
import dev.llmbench.result.LoadShape;
import dev.llmbench.Metric;
import dev.llmbench.result.Rate;
import dev.llmbench.server.PrefixCacheUse;
import dev.llmbench.client.RequestResult;
import dev.llmbench.server.ServerMetrics;
import dev.llmbench.result.ServiceLevels;
import dev.llmbench.result.SteadyState;
import dev.llmbench.result.StopReason;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.server.TokenCrossCheck;
import dev.llmbench.result.WarmupReport;
import dev.llmbench.internal.analysis.LevelFindings;
import dev.llmbench.internal.analysis.LevelWarnings;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.metrics.MaxTokensAsked;
import dev.llmbench.internal.metrics.Bootstrap;
import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.metrics.SampleDistribution;
import dev.llmbench.internal.server.PrefixCaches;
import dev.llmbench.internal.server.TokenCrossChecks;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A measured level: the statistics of its requests (computed once, by {@link LevelStatistics}), with
 * its plan, its endpoint and what the server said.
 */
@API(status = INTERNAL)
public final class MeasuredLevel extends LevelStatistics implements SweepLevelResult, dev.llmbench.internal.load.AdviceTaker {

  private final LevelPlan plan;
  private final EndpointInfo endpoint;
  private final ServiceLevels serviceLevels;
  private final List<Double> percentiles;
  private final StopReason stopReason;
  private final ServerMetrics serverMetrics;
  private final Optional<TokenCrossCheck> tokenCrossCheck;
  private final List<String> notes;
  private final LevelExtras extras;
  private final List<RequestResult> requests;
  private final Memo memo = new Memo();

  /**
   * @param serverMetrics what the server's {@code /metrics} said, or null when it has none
   * @param notes         warnings gathered while measuring, e.g. a failed metrics scrape
   */
  public MeasuredLevel(LevelPlan plan, EndpointInfo endpoint, List<RequestMetrics> requests, ServiceLevels serviceLevels,
      List<Double> percentiles, StopReason stopReason, ServerMetrics serverMetrics, List<String> notes) {
    this(plan, endpoint, requests, serviceLevels, percentiles, stopReason, serverMetrics, notes, LevelExtras.NONE);
  }

  /** @param extras what the level knows besides its requests, such as its warm-up */
  public MeasuredLevel(LevelPlan plan, EndpointInfo endpoint, List<RequestMetrics> requests, ServiceLevels serviceLevels,
      List<Double> percentiles, StopReason stopReason, ServerMetrics serverMetrics, List<String> notes, LevelExtras extras) {
    super(requests, serviceLevels);
    this.extras = extras;
    this.plan = plan;
    this.endpoint = endpoint;
    this.serviceLevels = serviceLevels;
    this.percentiles = List.copyOf(percentiles);
    this.stopReason = stopReason;
    this.serverMetrics = serverMetrics;
    this.tokenCrossCheck = serverMetrics == null ? Optional.empty() : TokenCrossChecks.of(requests, serverMetrics);
    this.notes = List.copyOf(notes);
    this.requests = Collections.unmodifiableList(metrics());
  }

  public LevelPlan plan() {
    return plan;
  }

  /** Derived values (documents, charts) computed once for every report. */
  public Memo memo() {
    return memo;
  }

  @Override
  public String label() {
    return plan.label();
  }

  @Override
  public LoadShape load() {
    return plan.load();
  }

  @Override
  public int maxTokens() {
    return plan.maxTokens();
  }

  @Override
  public int inputTokens() {
    return plan.inputTokens();
  }

  @Override
  public String prompts() {
    return plan.workload().prompts().name();
  }

  @Override
  public EndpointInfo endpoint() {
    return endpoint;
  }

  @Override
  public ServiceLevels serviceLevels() {
    return serviceLevels;
  }

  @Override
  public List<Double> percentiles() {
    return percentiles;
  }

  @Override
  public List<RequestResult> requests() {
    return requests;
  }

  @Override
  public Rate peakOutputThroughput() {
    return memo.get(Metric.PEAK_OUTPUT_THROUGHPUT, super::peakOutputThroughput);
  }

  @Override
  public int peakConcurrency() {
    return memo.get("peakConcurrency", super::peakConcurrency);
  }

  @Override
  public ConfidenceInterval percentileCi(Metric latency, double p) {
    SampleDistribution d = (SampleDistribution) latency.distributionOf(this); // every distribution here keeps its samples
    return Bootstrap.percentile(d.nanos(), p);
  }

  @Override
  public StopReason stopReason() {
    return stopReason;
  }

  @Override
  public Optional<ServerMetrics> serverMetrics() {
    return Optional.ofNullable(serverMetrics);
  }

  @Override
  public Optional<TokenCrossCheck> tokenCrossCheck() {
    return tokenCrossCheck;
  }

  @Override
  public Optional<SteadyState> steadyState() {
    return memo.get("steadyState", () -> load() instanceof LoadShape.ClosedLoop c ? steadyState(c.concurrency())
        : Optional.<SteadyState>empty());
  }

  @Override
  public Optional<PrefixCacheUse> prefixCache() {
    return memo.get("prefixCache", () -> PrefixCaches.of(metrics(), serverMetrics));
  }

  @Override
  public Optional<InputAlignment> inputAlignment() {
    PromptSource prompts = plan.workload().prompts();
    return memo.get("inputAlignment", () -> prompts.alignment().map(a -> {
      int largest = -1;
      int checked = 0;
      // Rows with lengths of their own (a trace) are compared each with its row, in row order (rows are streamed).
      List<RequestMetrics> billed = metrics().stream()
          .filter(m -> m.succeeded() && m.trace().serverUsage().map(u -> u.promptTokens()).isPresent())
          .sorted(java.util.Comparator.comparingInt(m -> m.trace().requestIndex())).toList();
      for (RequestMetrics m : billed) {
        int requested = a.requestedTokens() > 0 ? a.requestedTokens() : prompts.requestedInputTokens(m.trace().requestIndex());
        largest = Math.max(largest, Math.abs(m.promptTokens() - requested));
        checked++;
      }
      return new InputAlignment(a.requestedTokens(), a.method(), a.templateTokens(), a.plannedDeviation(),
          largest < 0 ? OptionalInt.empty() : OptionalInt.of(largest), checked);
    }));
  }

  @Override
  public Optional<WarmupReport> warmup() {
    return extras.warmup();
  }

  @Override
  public Optional<ClientLoad> clientLoad() {
    return extras.clientLoad();
  }

  @Override
  public Optional<GpuTelemetry> gpuTelemetry() {
    return extras.reading(GpuTelemetry.class);
  }

  @Override
  public Optional<DeploymentDescription> deploymentDescription() {
    return extras.deployment();
  }

  @Override
  public List<Finding> findings() {
    return memo.get("findings", () -> LevelFindings.of(this));
  }

  /**
   * The {@code max_tokens} the level's requests asked, as their bodies carried it (rows, a trace or a distribution
   * give each its own); empty for a level read back from files, which did not record it, or one that asked none.
   */
  public Optional<MaxTokensAsked> maxTokensAsked() {
    return memo.get("maxTokensAsked", () -> MaxTokensAsked.ofMetrics(metrics()));
  }

  /** What the level's warm-up requests asked, when recorded: {@code 128}, or {@code 14-130 (mean 61.3)}. */
  public Optional<MaxTokensAsked> warmupMaxTokensAsked() {
    return extras.reading(MaxTokensAsked.OfWarmup.class).map(MaxTokensAsked.OfWarmup::asked);
  }

  /** What the level's requests asked, as a label says it: {@code 128}, or {@code 14-130 (mean 61.3)}. */
  public String maxTokensText() {
    return maxTokensAsked().map(MaxTokensAsked::toString).orElse(Integer.toString(maxTokens()));
  }

  /**
   * Advice applies when the level's workload source takes the setting (a sessions level counts sessions, not requests)
   * and the level has not done it already (sent {@code ignore_eos}, kept its prompts out of the cache).
   */
  @Override
  public boolean accepts(dev.llmbench.internal.load.AdviceSetting setting) {
    var prompts = plan.workload().prompts();
    if (setting.beside().isPresent() && !prompts.takes(setting.beside().get())) return false;
    return switch (setting) {
      case MEASUREMENT_ROUNDS -> load() instanceof LoadShape.ClosedLoop; // rounds are C requests of a closed loop
      case MEASUREMENT_REQUESTS -> true;
      // Asked already: sent on every request, or left off on purpose (a tool call or a JSON answer must end where it ends).
      case IGNORE_EOS -> !plan.workload().ignoreEos() && metrics().stream().noneMatch(m -> m.trace().ignoreEosSent());
      case PREFIX_CACHE_AVOID -> plan.workload().prefixCache() != dev.llmbench.Workload.PrefixCache.AVOID;
    };
  }

  @Override
  public Optional<String> instead(dev.llmbench.internal.load.AdviceSetting setting) {
    Optional<String> own = plan.workload().prompts().instead(setting);
    if (own.isPresent() || setting != dev.llmbench.internal.load.AdviceSetting.IGNORE_EOS) return own;
    return Optional.of("the level asked ignore_eos already (answers still differ: the rows' own max_tokens, a server that "
        + "does not honour it, or tool calls and JSON answers, which end where the model ends them): read the steady-state "
        + "figure instead");
  }

  /** The level's notes and what its prompts say of themselves (a dataset's rows that began with the model's turn). */
  private List<String> withPrompts(List<String> notes) {
    // Which rows this level sent (a request of aligned rows keeps its row's index): a row's warning is the level's own.
    java.util.BitSet sent = new java.util.BitSet();
    for (RequestMetrics m : metrics()) if (m.trace().requestIndex() >= 0) sent.set(m.trace().requestIndex());
    List<String> said = new java.util.ArrayList<>(plan.workload().prompts().warnings(sent));
    firstChunksUnknown().ifPresent(said::add);
    chunkTokensUnknown().ifPresent(said::add);
    if (said.isEmpty()) return notes;
    List<String> all = new java.util.ArrayList<>(notes);
    all.addAll(said);
    return all;
  }

  /**
   * Requests whose usage says some chunk carried several tokens while neither per-chunk usage nor the server's
   * tokenize route said how many the first one did: their TPOT counts one token there, an estimate, said as such
   * even below the 10% chunks-versus-tokens warning (37 chunks for 40 tokens).
   */
  private Optional<String> firstChunksUnknown() {
    long n = metrics().stream().filter(m -> m.succeeded() && m.trace().firstChunkTokens() < 0 && m.trace().usage() != null
        && m.trace().usage().completionTokens() != null && m.trace().usage().completionTokens() > m.trace().tokenChunks()
        && m.trace().tokenChunks() > 0).count();
    if (n == 0) return Optional.empty();
    return Optional.of(n + " of " + succeeded() + " requests carried more tokens than chunks and the server said neither "
        + "how many the first chunk held (no usage per chunk) nor counted it (no tokenize route): their TPOT and output "
        + "tok/s per user are estimates that count one token in the first chunk (too low and too high by up to (k - 1) / "
        + "(output tokens - 1) for k tokens there)");
  }

  /**
   * Requests whose usage says some chunk carried several tokens while the server did not say how many each did (no
   * per-chunk usage, and more tokens after the first chunk than chunks): their ITL per token is not given.
   */
  private Optional<String> chunkTokensUnknown() {
    long n = metrics().stream().filter(m -> m.itlPerTokenUnknown() && m.trace().usage() != null
        && m.trace().usage().completionTokens() != null && m.trace().usage().completionTokens() > m.trace().tokenChunks())
        .count();
    if (n == 0) return Optional.empty();
    return Optional.of(n + " of " + succeeded() + " requests carried more tokens than chunks and the server did not say how "
        + "many each chunk held (no usage per chunk): their ITL per token is not given (ITL, per chunk, is)");
  }

  @Override
  public List<String> warnings() {
    return memo.get("warnings", () -> LevelWarnings.of(this, chunkTokenMismatches(), withPrompts(notes),
        plan.stop().targetHalfWidth(), aimedAtPrecision()));
  }

  /** Whether the level went on until its throughput was precise (adaptive, or a count that goes on on this endpoint). */
  private boolean aimedAtPrecision() {
    return plan.stop().on(endpoint().embedded().isPresent()).match(c -> c.precision().isPresent(), t -> false, a -> true);
  }

  @Override
  public String toString() {
    return plan.label();
  }
}
