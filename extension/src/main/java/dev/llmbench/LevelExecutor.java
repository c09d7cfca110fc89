package dev.llmbench;

import dev.llmbench.internal.load.AdaptiveBudget;
import dev.llmbench.internal.load.Budget;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.internal.load.LoadRunner;
import dev.llmbench.internal.metrics.RequestMetrics;
import dev.llmbench.internal.report.AllureSupport;
import dev.llmbench.internal.server.MetricsScraper;
import dev.llmbench.internal.server.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs one level against a ready endpoint: warm-up, measured load, server metrics around it. */
final class LevelExecutor {

  private LevelExecutor() {}

  static SweepLevelResult run(LiveEndpoint endpoint, EndpointInfo info, LevelPlan plan, ServiceLevels slo,
      List<Double> percentiles) {
    LoadRunner.Sender sender = sender(endpoint, info, plan, plan.maxTokens());
    Duration countGrace = endpoint.settings().requestTimeout().plusSeconds(5);
    if (plan.warmupRequests() > 0) {
      // Through the same loop as the level, so its first measured request does not pay for a cold code path.
      AllureSupport.step("Warm-up: " + plan.warmupRequests() + " requests, not counted", () -> {
        drive(new LoadRunner(sender(endpoint, info, plan, Math.min(16, plan.maxTokens())), endpoint.client()::cancelAll,
            countGrace), plan, Budget.requests(plan.warmupRequests()));
      });
    }
    Budget budget = plan.adaptive() != null ? new AdaptiveBudget(plan.adaptive(), plan.concurrency())
        : plan.duration() != null ? Budget.duration(plan.duration())
        : Budget.requests(plan.requests());
    LoadRunner runner = new LoadRunner(sender, endpoint.client()::cancelAll,
        plan.duration() != null ? plan.grace() : countGrace);
    Optional<MetricsScraper> scraper = MetricsScraper.start(endpoint.client());
    LoadRunner.Outcome outcome = AllureSupport.step("Measure " + plan.label(), () -> drive(runner, plan, budget));
    List<String> warnings = new ArrayList<>();
    ServerMetrics server = scraper.map(s -> s.stop(warnings)).orElse(null);
    List<RequestMetrics> metrics = outcome.traces().stream().map(RequestMetrics::of).toList();
    return new SweepLevelResult(plan, info, metrics, slo, percentiles, outcome.stopReason(), server, warnings);
  }

  private static LoadRunner.Outcome drive(LoadRunner runner, LevelPlan plan, Budget budget) {
    return plan.isOpenLoop()
        ? runner.openLoop(plan.rate(), plan.burstiness(), plan.concurrency(), plan.seed(), budget)
        : runner.closedLoop(plan.concurrency(), budget);
  }

  private static LoadRunner.Sender sender(LiveEndpoint endpoint, EndpointInfo info, LevelPlan plan, int maxTokens) {
    return (index, scheduled) -> endpoint.client().send(info.api(), info.model(),
        plan.workload().request(index, maxTokens, plan.ignoreEos(), plan.temperature()), scheduled);
  }

}
