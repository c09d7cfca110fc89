package dev.llmbench.internal.core;

import dev.llmbench.internal.client.RequestTrace;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.metrics.LevelStatistics;
import dev.llmbench.internal.metrics.MaxTokensAsked;
import dev.llmbench.result.LoadShape;
import dev.llmbench.result.WarmupReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A level's warm-up, through the level's own load loop, that checks it did its job: a closed loop's
 * warm-up goes on until C requests were in flight together (so the server has run a batch of C), up to
 * {@value WarmupReport#MAX_ROUNDS} rounds; it stops early when requests fail, as more would not help.
 */
final class WarmupRun {

  private WarmupRun() {}

  /**
   * @param runners a load runner whose requests ask for the given {@code max_tokens}
   * @return what the warm-up did; empty when the plan has none
   */
  static Optional<Result> run(LevelPlan plan, IntFunction<LoadRunner> runners, BenchListener listener) {
    int requests = plan.warmupRequests();
    if (requests == 0) return Optional.empty();
    int maxTokens = plan.warmupMaxTokens();
    int target = plan.load() instanceof LoadShape.ClosedLoop c ? Math.min(c.concurrency(), requests) : 0;
    List<RequestTrace> all = new ArrayList<>();
    int peak = 0;
    int rounds = 0;
    do {
      rounds++;
      String name = "Warm-up" + (rounds > 1 ? " round " + rounds : "") + ": " + requests + " requests of max_tokens "
          + (rounds > 1 ? MaxTokensAsked.of(all).map(MaxTokensAsked::toString).orElse(Integer.toString(maxTokens))
              : ownLengths(plan, maxTokens) ? "their own" : Integer.toString(maxTokens)) + ", not counted" + (target > 0 ? "; until " + target + " are in flight together" : "");
      LoadRunner.Outcome outcome = Listeners.step(listener, name,
          () -> runners.apply(maxTokens).run(plan.load(), Budget.requests(requests), plan.seed()));
      all.addAll(outcome.traces());
      peak = Math.max(peak, LevelStatistics.peakConcurrency(outcome.traces()));
    } while (peak < target && all.stream().allMatch(RequestTrace::succeeded) && rounds < WarmupReport.MAX_ROUNDS);
    Map<String, Long> errors = new LinkedHashMap<>();
    all.stream().filter(t -> !t.succeeded()).forEach(t -> errors.merge(t.failure().key(), 1L, Long::sum));
    long first = all.stream().mapToLong(RequestTrace::startNanos).min().orElse(0);
    long last = all.stream().mapToLong(RequestTrace::endNanos).max().orElse(first);
    // What the requests asked (a row's own length wins over the warm-up's setting): the one value, or the largest.
    Optional<MaxTokensAsked> asked = MaxTokensAsked.of(all);
    return Optional.of(new Result(new WarmupReport(all.size(), (int) errors.values().stream().mapToLong(Long::longValue).sum(),
        errors, asked.map(MaxTokensAsked::max).orElse(maxTokens), target, peak, rounds, Duration.ofNanos(last - first)),
        asked.map(MaxTokensAsked.OfWarmup::new)));
  }

  /** Whether the warm-up's requests ask lengths of their own: a trace's rows, or the level's rows or distribution. */
  private static boolean ownLengths(LevelPlan plan, int maxTokens) {
    var prompts = plan.workload().prompts();
    return prompts.hasRows() || maxTokens == plan.maxTokens() && (prompts.usesRowLengths() || prompts.outputLengths().isPresent());
  }

  /** The warm-up's report, and the {@code max_tokens} its requests asked when they asked several. */
  record Result(WarmupReport report, Optional<MaxTokensAsked.OfWarmup> asked) {
  }
}
